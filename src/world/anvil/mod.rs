//! Real Minecraft Java Edition worlds (feature `anvil`): Anvil region files loaded into a
//! [`ChunkedWorld`] in the game's own coordinates.
//!
//! ```no_run
//! use voxnav::anvil::load_world;
//!
//! // A save folder (with `region/`), a folder of region files (`*.mca`), or one region file.
//! let loaded = load_world("saves/MyWorld")?;
//! println!("{}", loaded.report);
//! # Ok::<(), voxnav::Error>(())
//! ```
//!
//! What is loaded:
//! - chunks written by Minecraft 1.18 or later (data version 2860 and up), whose status is
//!   full (`minecraft:full`, or `full`): finished terrain. Their 24 sections (y from -64 to
//!   319) become chunks of the world; every block state becomes a [`Block`](crate::Block) through the
//!   generated block table ([`block_for_state`] says how);
//! - everything else is *unloaded*: chunks not yet fully generated, chunks absent from the
//!   files, chunks that could not be read. Unloaded cells are [`Block::Barrier`](crate::Block::Barrier): neither
//!   passable nor standable, so no route enters or stands on what the loader does not know.
//!
//! What is skipped, counted in the [`LoadReport`] by [`SkipReason`] and never a panic: a chunk
//! that is not full, older than 1.18, damaged in the file (location, length, compression),
//! stored in sectors another slot points at too, inflating past [`MAX_CHUNK_NBT`] (a
//! compression bomb) or past what is left of the file's or the load's inflation budget
//! ([`MAX_REGION_NBT`], [`MAX_LOAD_NBT`]), whose NBT does not parse or lacks its sections,
//! whose packed block data does not match its palette, or that claims another position than
//! its slot. A region file too short for its header is an error when it is the only file
//! asked for, and a counted bad file in a folder.
//!
//! Where a region file's chunks go: each chunk's NBT names its own chunk coordinates
//! (`xPos`, `zPos`), and they place the file. The name `r.X.Z.mca` is only a cross-check: a
//! renamed file (a backup, a download) loads where its chunks say, and a file whose name
//! disagrees with its chunks is listed in [`LoadReport::misnamed_files`]. Only a file whose
//! chunks name no position is placed by its name.
//!
//! A region file is read header first, then only the sectors its chunks occupy
//! ([`LoadReport::bytes_read`] says how much).
//!
//! One chunk on its own: [`decode_chunk`] (or [`ChunkColumn::decode`], reusing its buffers)
//! turns a chunk's decompressed NBT into its chunk coordinates and its blocks, section by
//! section, through the same code the loader runs for every chunk. A block name the table does not know (a newer or modded block) is loaded as
//! [`Block::Barrier`](crate::Block::Barrier), the conservative answer (never walked through, never stood on), and
//! counted by name; an unknown property value takes the block's default value and is counted.

#[rustfmt::skip]
mod block_table;
mod chunk;
mod column;
mod inflate;
mod load;
mod region;
mod table;

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::world::chunked::{CHUNK_SIZE, ChunkedWorld};

pub use chunk::MIN_DATA_VERSION;
pub use column::{ChunkColumn, decode_chunk};
pub use load::{load_region, load_world};
pub use table::{
    BLOCK_ALIASES, StateInfo, StateLookup, TABLE_SOURCE, TableSource, block_for_state,
    canonical_name, lookup_state, state_count, state_info, state_name, state_property,
};

/// The lowest block y of a 1.18+ overworld chunk.
pub const MIN_Y: i32 = -64;
/// One past the highest block y of a 1.18+ overworld chunk.
pub const MAX_Y: i32 = 320;
/// The sections of a chunk column: y from [`MIN_Y`] to [`MAX_Y`], 16 blocks each.
const SECTIONS: usize = ((MAX_Y - MIN_Y) / CHUNK_SIZE) as usize;
const MIN_SECTION: i32 = MIN_Y / CHUNK_SIZE;
/// The side of a region in chunks.
const REGION_CHUNKS: i32 = 32;
/// The most bytes one chunk's NBT may decompress to: 16 MiB. The game stores a chunk in its
/// region file while the compressed chunk is under 1 MiB, and chunk NBT compresses 5 to 15
/// times (in the 1.21 sample world at most 14.2 times; its largest chunk is 84 KB), so no
/// chunk a region holds comes near it, while a compression bomb (deflate reaches 1032 to 1)
/// is stopped after 16 MiB of output instead of inflating to a gigabyte. Larger chunks are
/// counted as [`SkipReason::TooLarge`].
pub const MAX_CHUNK_NBT: usize = 16 << 20;
/// The most bytes the chunks of one region file may inflate to, together: 256 MiB. A full
/// region of the 1.21 sample world's chunks (64 KiB of NBT each on average) inflates to
/// 64 MiB; without this cap a region whose 1 024 chunks each inflate to just under
/// [`MAX_CHUNK_NBT`] would cost 16 GiB of inflation. Chunks past it are counted as
/// [`SkipReason::OverBudget`].
pub const MAX_REGION_NBT: u64 = 256 << 20;
/// The most bytes one load may inflate, over all its region files: 8 GiB, 128 full regions
/// of the sample world's chunks (131 072 chunks, more than fits in memory as a
/// [`ChunkedWorld`] on most machines), and at most some seconds of inflation for a folder of
/// hostile files. Chunks past it are counted as [`SkipReason::OverBudget`].
pub const MAX_LOAD_NBT: u64 = 8 << 30;
/// The largest NBT list accepted: far above any real chunk's, low enough that a damaged
/// length cannot ask for gigabytes.
const MAX_NBT_LIST: usize = 1 << 16;

/// Why a chunk stored in a region file was not loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum SkipReason {
    /// Its status is not full: the game has not finished generating it. Normal at the edge
    /// of explored land.
    NotFull,
    /// Written before Minecraft 1.18 (data version below [`MIN_DATA_VERSION`]), or without
    /// a data version.
    OldFormat,
    /// Its location-table entry or length is impossible (inside the header, zero sectors,
    /// a length larger than its sectors).
    BadLocation,
    /// The file ends before the chunk does.
    Truncated,
    /// Stored in an external `.mcc` file (chunks over 1 MiB), which voxnav does not read.
    External,
    /// An unknown compression type, or a payload that does not decompress.
    BadCompression,
    /// Its NBT decompresses to more than [`MAX_CHUNK_NBT`] bytes: a compression bomb, or at
    /// least not a chunk the game stores in a region file.
    TooLarge,
    /// The NBT does not parse, or lacks a field voxnav needs.
    BadNbt,
    /// A section's packed block indices do not match its palette.
    BadBlockData,
    /// Its `xPos`/`zPos` name another chunk than the slot it is stored in.
    WrongPosition,
    /// Its location entry points at sectors that another slot's entry points at too: one
    /// payload stored once and named by many slots (a way to make a small file inflate many
    /// times), or a damaged table. Every slot of such an overlap is refused.
    SharedSectors,
    /// Inflating it would pass what is left of the region file's ([`MAX_REGION_NBT`]) or the
    /// load's ([`MAX_LOAD_NBT`]) inflation budget.
    OverBudget,
}

impl SkipReason {
    /// Every reason, in report order.
    pub const ALL: [SkipReason; 12] = [
        SkipReason::NotFull,
        SkipReason::OldFormat,
        SkipReason::BadLocation,
        SkipReason::Truncated,
        SkipReason::External,
        SkipReason::BadCompression,
        SkipReason::TooLarge,
        SkipReason::BadNbt,
        SkipReason::BadBlockData,
        SkipReason::WrongPosition,
        SkipReason::SharedSectors,
        SkipReason::OverBudget,
    ];

    /// A short name for reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SkipReason::NotFull => "not full",
            SkipReason::OldFormat => "pre-1.18",
            SkipReason::BadLocation => "bad location",
            SkipReason::Truncated => "truncated",
            SkipReason::External => "external .mcc",
            SkipReason::BadCompression => "bad compression",
            SkipReason::TooLarge => "too large",
            SkipReason::BadNbt => "bad NBT",
            SkipReason::BadBlockData => "bad block data",
            SkipReason::WrongPosition => "wrong position",
            SkipReason::SharedSectors => "shared sectors",
            SkipReason::OverBudget => "over the inflation budget",
        }
    }
}

/// What a load did: chunks loaded and skipped, unknown blocks, time and memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Region files read.
    pub region_files: usize,
    /// Region files that could not be read at all, with the reason.
    pub bad_region_files: Vec<(PathBuf, String)>,
    /// Chunks stored in the files (slots with a location entry).
    pub chunks_stored: usize,
    /// Chunks loaded as terrain.
    pub chunks_loaded: usize,
    /// Chunks not loaded, by reason.
    pub skipped: BTreeMap<SkipReason, usize>,
    /// Up to ten messages about damaged chunks (not about chunks that are merely not full or
    /// old), to say what was wrong where.
    pub problems: Vec<String>,
    /// Palette entries whose block name the table does not know, by name (loaded as
    /// [`Block::Barrier`](crate::Block::Barrier)).
    pub unknown_blocks: BTreeMap<String, usize>,
    /// Palette entries with a property the table does not know, or without one it expects
    /// (each took the block's default value).
    pub defaulted_properties: usize,
    /// Non-air sections outside y -64..320 in loaded chunks, which the world cannot hold.
    pub sections_outside: usize,
    /// The lowest and highest data version among loaded chunks.
    pub data_versions: Option<(i32, i32)>,
    /// Wall-clock time of the load.
    pub elapsed: Duration,
    /// Heap bytes the loaded world holds ([`ChunkedWorld::heap_bytes`]).
    pub bytes_held: usize,
    /// Bytes read from the region files: their headers and the sectors of the chunks read.
    pub bytes_read: u64,
    /// Bytes of chunk NBT inflated, including chunks then skipped (at most
    /// [`MAX_LOAD_NBT`] and a chunk's [`MAX_CHUNK_NBT`]).
    pub bytes_inflated: u64,
    /// Region files whose name `r.X.Z.mca` disagrees with their chunks' own positions, with
    /// the region `(x, z)` their chunks place them in (where they were loaded).
    pub misnamed_files: Vec<(PathBuf, (i32, i32))>,
}

impl LoadReport {
    /// Chunks skipped for `reason`.
    #[must_use]
    pub fn skipped(&self, reason: SkipReason) -> usize {
        self.skipped.get(&reason).copied().unwrap_or(0)
    }

    /// Chunks skipped for any reason.
    #[must_use]
    pub fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }

    fn skip(&mut self, reason: SkipReason, at: impl FnOnce() -> String) {
        *self.skipped.entry(reason).or_insert(0) += 1;
        let damage = !matches!(reason, SkipReason::NotFull | SkipReason::OldFormat);
        if damage && self.problems.len() < 10 {
            self.problems.push(format!("{}: {}", at(), reason.name()));
        }
    }
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "loaded {} of {} stored chunks from {} region files in {:.1} ms, {:.1} MiB held \
             ({:.1} KiB per loaded chunk)",
            self.chunks_loaded,
            self.chunks_stored,
            self.region_files,
            self.elapsed.as_secs_f64() * 1e3,
            self.bytes_held as f64 / (1024.0 * 1024.0),
            self.bytes_held as f64 / 1024.0 / self.chunks_loaded.max(1) as f64,
        )?;
        let skipped: Vec<String> = self
            .skipped
            .iter()
            .map(|(reason, n)| format!("{n} {}", reason.name()))
            .collect();
        if !skipped.is_empty() {
            write!(f, "; skipped {}", skipped.join(", "))?;
        }
        if !self.bad_region_files.is_empty() {
            write!(
                f,
                "; {} unreadable region files",
                self.bad_region_files.len()
            )?;
        }
        if !self.unknown_blocks.is_empty() {
            let names: Vec<&str> = self.unknown_blocks.keys().map(String::as_str).collect();
            write!(f, "; unknown blocks (as barriers): {}", names.join(", "))?;
        }
        if !self.misnamed_files.is_empty() {
            let files: Vec<String> = self
                .misnamed_files
                .iter()
                .map(|(file, (x, z))| format!("{} holds region {x},{z}", file.display()))
                .collect();
            write!(
                f,
                "; named for another region than their chunks (loaded where the chunks say): {}",
                files.join(", ")
            )?;
        }
        if self.defaulted_properties > 0 {
            write!(
                f,
                "; {} palette entries with defaulted properties",
                self.defaulted_properties
            )?;
        }
        Ok(())
    }
}

/// A loaded world and the report of its load.
#[derive(Debug, Clone)]
pub struct LoadedWorld {
    /// The world, in Minecraft's world coordinates; unloaded chunks read as
    /// [`Block::Barrier`](crate::Block::Barrier).
    pub world: ChunkedWorld,
    /// The chunk columns loaded as terrain, as chunk coordinates `(x, z)` (block
    /// coordinates divided by 16, rounded down), in load order.
    pub loaded_chunks: Vec<(i32, i32)>,
    /// What the load did.
    pub report: LoadReport,
}

/// The most bytes [`load_world`] accepts in one region file: the 8 KiB header and 1024
/// chunks of 255 sectors of 4 KiB each, the most a region holds (a larger chunk lives in an
/// external `.mcc` file, which voxnav does not read). A larger file is refused (a single file)
/// or reported in [`LoadReport::bad_region_files`] (a folder) without being read. Of a file
/// within the cap, only the header and the sectors its chunks occupy are read.
pub const MAX_REGION_BYTES: u64 = 8192 + 1024 * 255 * 4096;
