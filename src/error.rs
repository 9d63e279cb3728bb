//! The crate's one error type.

use std::sync::Arc;

use glam::IVec3;
use thiserror::Error;

use crate::world::{Bounds, InvalidFeet};

/// Everything that can go wrong in voxnav. Malformed input is an error; "no path" is not
/// (it is [`crate::SearchStatus::Unreachable`]).
///
/// Errors are `Clone` (an I/O error is shared behind an [`Arc`]), so a result can be cached
/// or sent to several threads.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum Error {
    /// The start of a search is not a valid feet position.
    #[error("start {},{},{} is not a valid feet position: {reason}", pos.x, pos.y, pos.z)]
    InvalidStart {
        /// The start position given.
        pos: IVec3,
        /// Why it is not valid.
        reason: InvalidFeet,
    },
    /// The goal of a search is not a valid feet position.
    #[error("goal {},{},{} is not a valid feet position: {reason}", pos.x, pos.y, pos.z)]
    InvalidGoal {
        /// The goal position given.
        pos: IVec3,
        /// Why it is not valid.
        reason: InvalidFeet,
    },
    /// A cell outside a finite world was written to.
    #[error("cell {},{},{} is outside the world ({})", pos.x, pos.y, pos.z, describe_bounds(bounds))]
    OutOfWorld {
        /// The cell.
        pos: IVec3,
        /// The world's bounds.
        bounds: crate::world::Bounds,
    },
    /// A cell was written in a chunk column that a world of chunk columns
    /// ([`ChunkedWorld::with_height`](crate::ChunkedWorld::with_height)) has not loaded:
    /// nothing is known there to change.
    #[error("chunk column {chunk_x},{chunk_z} is not loaded: load it before writing its cells")]
    ChunkNotLoaded {
        /// The column's x: the cell's x divided by 16, rounded down.
        chunk_x: i32,
        /// The column's z: the cell's z divided by 16, rounded down.
        chunk_z: i32,
    },
    /// A node budget of zero was given: the search could not even expand its start.
    #[error("the node budget is zero: allow at least one expansion")]
    ZeroBudget,
    /// A time budget of zero was given.
    #[error("the time budget is zero: allow some time for the search")]
    ZeroTimeBudget,
    /// The world has no finite bounds and no budget was given, so a search for an
    /// unreachable goal would never end.
    #[error(
        "the world is unbounded and no node or time budget was given: set `SearchOptions::max_nodes` or `max_time`"
    )]
    Unbounded,
    /// An engine that keeps state for the whole world ([`crate::engine::DStarLite`]) was given a
    /// world without finite bounds: it has no budget setting to keep its work finite.
    #[error(
        "{0} needs a world with finite bounds (make it with `ChunkedWorld::with_size` or `with_bounds`)"
    )]
    NeedsBounds(&'static str),
    /// A reachability index was asked of a world without finite bounds: it labels every
    /// feet position of the world, so the world must be bounded.
    #[error(
        "a reachability index needs a world with finite bounds (make it with `ChunkedWorld::with_size` or `with_bounds`)"
    )]
    IndexNeedsBounds,
    /// A reachability index would not fit in memory: the world has too many columns or too
    /// many feet positions.
    #[error("the world is too large for a reachability index: {0}")]
    IndexTooLarge(String),
    /// A walk graph was asked of a world without finite bounds: it holds every feet position
    /// of the world, so the world must be bounded.
    #[error(
        "a compiled walk graph needs a world with finite bounds (make it with `ChunkedWorld::with_size` or `with_bounds`)"
    )]
    GraphNeedsBounds,
    /// A walk graph would not fit in memory (too many columns or feet positions), or the
    /// walking rules produced moves it cannot store.
    #[error("cannot compile the walk graph: {0}")]
    GraphTooLarge(String),
    /// A walk graph (or an engine keeping one) no longer describes its world: the world
    /// changed since the graph was compiled or last updated, and the changes given did not
    /// cover it (none were given, or the change log started after the graph's version).
    #[error(
        "the walk graph describes version {built} of its world, which is at version {now}: \
         update it with every change since (`ChunkedWorld::take_changes` after each update) or \
         compile it again"
    )]
    StaleGraph {
        /// The world's version the graph describes.
        built: u64,
        /// The world's version now.
        now: u64,
    },
    /// Jump tables ([`JumpTables`](crate::search::jps3d::JumpTables)) no longer describe
    /// their world: it changed since they were built.
    #[error(
        "the jump tables describe version {built} of their world, which is at version {now}: \
         build them again (`JumpTables::build`, or `Router::prepare`)"
    )]
    StaleJumpTables {
        /// The world's version the tables describe.
        built: u64,
        /// The world's version now.
        now: u64,
    },
    /// A structure derived from one world was handed another (a different world instance,
    /// a clone included, even of the same size).
    #[error(
        "the {what} was built from world #{built}, not from the world given ({}): build one \
         for that world", given.map_or_else(|| "one without an identity".to_string(), |id| format!("world #{id}"))
    )]
    OtherWorld {
        /// What was handed the wrong world.
        what: &'static str,
        /// The id ([`WorldId::get`](crate::world::WorldId::get)) of the world it was built from.
        built: u64,
        /// The id of the world given, `None` for a world without a [`WorldWatch`](crate::world::WorldWatch).
        given: Option<u64>,
    },
    /// A walk graph whose update failed part way: it refuses to answer until compiled again
    /// (the engines that keep one compile it again on their next replan).
    #[error("the walk graph is unusable since an update failed ({0}): compile it again")]
    GraphBroken(String),
    /// An agent or cost setting is out of its allowed range.
    #[error("invalid setting: {0}")]
    InvalidSetting(String),
    /// A text input (world file, map file) is malformed.
    #[error("line {line}, column {column}: {message}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// 1-based column number (1 when the whole line is at fault).
        column: usize,
        /// What is wrong, in words.
        message: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: String,
        /// The underlying error, shared so that the error can be cloned.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// A file is larger than a loader accepts: the loaders read at most
    /// [`MAX_FILE_BYTES`](crate::world::formats::MAX_FILE_BYTES) bytes, so that a wrong path
    /// (a device, a huge log) fails fast instead of filling memory.
    #[error("{path}: the file is larger than the {limit} bytes voxnav reads")]
    FileTooLarge {
        /// The file concerned.
        path: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A world is too large to be written in the layered text format: its text would be
    /// longer than [`MAX_FILE_BYTES`](crate::world::formats::MAX_FILE_BYTES), the most that
    /// [`load_text_world`](crate::world::load_text_world) reads back.
    #[error(
        "the world's text would take {bytes} bytes, more than the {limit} that can be loaded again"
    )]
    WorldTooLarge {
        /// The length the text would have, in bytes.
        bytes: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A Minecraft world or region file cannot be loaded (see [`crate::anvil`]); damaged
    /// chunks inside a readable file are counted skips, not this error.
    #[error("{path}: {problem}")]
    Anvil {
        /// The file or folder concerned.
        path: String,
        /// What is wrong, in words.
        problem: String,
    },
    /// A start or goal cell of a 2D grid is outside the grid or blocked.
    #[error("{role} cell [x={}, y={}] {problem}", cell.x, cell.y)]
    InvalidCell {
        /// `"start"` or `"goal"`.
        role: &'static str,
        /// The cell given.
        cell: glam::IVec2,
        /// What is wrong with it, in words.
        problem: String,
    },
    /// No Minecraft mob type has this name (see [`crate::moves::profile`]).
    #[error(
        "unknown mob type {name:?}: use the game's entity name without `minecraft:` (zombie, iron_golem, ...); `voxnav::moves::profile::mob_names()` lists them all"
    )]
    UnknownMob {
        /// The name given.
        name: String,
    },
}

impl Error {
    /// An [`Error::Io`] for `path`.
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.display().to_string(),
            source: Arc::new(source),
        }
    }

    /// Shorthand for a [`Error::Parse`].
    pub(crate) fn parse(line: usize, column: usize, message: impl Into<String>) -> Self {
        Error::Parse {
            line,
            column,
            message: message.into(),
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

fn describe_bounds(b: &Bounds) -> String {
    format!(
        "x {}..{}, y {}..{}, z {}..{}",
        b.min.x, b.max.x, b.min.y, b.max.y, b.min.z, b.max.z
    )
}
