//! The change log of a [`ChunkedWorld`]: which cells its writes changed since the last report.

use ahash::AHashMap;
use glam::IVec3;

use super::ChunkedWorld;
use super::block::Block;
use super::chunk::{CHUNK_SHIFT, chunk_of};
use crate::world::WorldId;

/// One cell's net change, as reported by [`ChunkedWorld::take_changes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockChange {
    /// The cell.
    pub pos: IVec3,
    /// The block before the first write since the last report.
    pub old: Block,
    /// The block now.
    pub new: Block,
}

/// What changed since the last [`ChunkedWorld::take_changes`]: the dirty cells and chunks,
/// and the chunk columns loaded or unloaded (a world made by
/// [`ChunkedWorld::with_height`]). A structure derived from the world follows a load by
/// deriving the column afresh (and its seams with the loaded neighbours), an unload by
/// dropping it: the cells of such a column are not listed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Every cell whose block differs from what it was at the last report, in the order of
    /// their first write. A cell written and then restored is not listed, nor a cell of a
    /// column in [`Changes::loaded_columns`] or [`Changes::unloaded_columns`].
    pub cells: Vec<BlockChange>,
    /// The chunks (chunk coordinates: cell coordinates divided by [`CHUNK_SIZE`](super::CHUNK_SIZE), rounded
    /// down) holding at least one changed cell, sorted by `(x, y, z)`, without repeats.
    pub chunks: Vec<IVec3>,
    /// The chunk columns (chunk coordinates `(x, z)`) loaded now that were loaded since the
    /// last report, a reload of a loaded column included: their contents are new. Sorted,
    /// without repeats.
    pub loaded_columns: Vec<(i32, i32)>,
    /// The chunk columns loaded at the last report and not loaded now. Sorted, without
    /// repeats. A column loaded and unloaded again between two reports is in neither list.
    pub unloaded_columns: Vec<(i32, i32)>,
    /// Which world reported the changes and the versions they span, for an update to check
    /// that they cover everything since the version it describes; `None` when tracking was
    /// off.
    pub(crate) span: Option<ChangeSpan>,
}

/// The world and the versions a [`Changes`] covers: every change after version `since` up to
/// version `until`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ChangeSpan {
    pub(crate) world: WorldId,
    pub(crate) since: u64,
    pub(crate) until: u64,
}

impl Changes {
    /// Whether nothing changed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty() && self.loaded_columns.is_empty() && self.unloaded_columns.is_empty()
    }

    /// Whether a chunk column was loaded or unloaded: a structure that follows cell changes
    /// only must then be built again.
    #[must_use]
    pub fn has_column_changes(&self) -> bool {
        !self.loaded_columns.is_empty() || !self.unloaded_columns.is_empty()
    }

    /// The changed cells' positions.
    pub fn positions(&self) -> impl Iterator<Item = IVec3> + '_ {
        self.cells.iter().map(|c| c.pos)
    }
}

/// The cells written since the last report, each with its block before the first write.
#[derive(Clone, Default)]
pub(super) struct ChangeLog {
    pub(super) first_old: AHashMap<IVec3, Block>,
    pub(super) order: Vec<IVec3>,
    /// The columns loaded or unloaded, each with whether it was loaded at the last report.
    pub(super) columns: AHashMap<(i32, i32), bool>,
    /// The world's version when the log started or was last taken.
    pub(super) since: u64,
}

impl ChunkedWorld {
    /// Starts (`true`) or stops (`false`) recording which cells writes change. Starting
    /// begins with nothing recorded; stopping forgets what was recorded. Off for a new world,
    /// so that building a large world records nothing.
    ///
    /// ```
    /// use voxnav::IVec3;
    /// use voxnav::{Block, ChunkedWorld};
    ///
    /// let mut world = ChunkedWorld::new();
    /// world.track_changes(true);
    /// world.set(IVec3::new(1, 2, 3), Block::Solid)?;
    /// world.set(IVec3::new(40, 0, 0), Block::Water)?;
    /// world.set(IVec3::new(40, 0, 0), Block::Air)?; // restored: not a change
    /// let changes = world.take_changes();
    /// assert_eq!(changes.positions().collect::<Vec<_>>(), [IVec3::new(1, 2, 3)]);
    /// assert_eq!(changes.chunks, [IVec3::new(0, 0, 0)]);
    /// assert!(world.take_changes().is_empty());
    /// # Ok::<(), voxnav::Error>(())
    /// ```
    pub fn track_changes(&mut self, on: bool) {
        let since = self.version();
        self.changes = on.then(|| ChangeLog {
            since,
            ..ChangeLog::default()
        });
    }

    /// Whether writes are being recorded (see [`ChunkedWorld::track_changes`]).
    #[must_use]
    pub fn is_tracking_changes(&self) -> bool {
        self.changes.is_some()
    }

    /// The net changes since tracking started or since the last call, and forgets them.
    /// Empty when tracking is off.
    pub fn take_changes(&mut self) -> Changes {
        let Some(log) = self.changes.as_mut() else {
            return Changes::default();
        };
        let order = std::mem::take(&mut log.order);
        let first_old = std::mem::take(&mut log.first_old);
        let columns = std::mem::take(&mut log.columns);
        let span = ChangeSpan {
            world: self.live.id(),
            since: log.since,
            until: self.live.get(),
        };
        log.since = span.until;
        let mut cells = Vec::with_capacity(order.len());
        for pos in order {
            let column = (pos.x >> CHUNK_SHIFT, pos.z >> CHUNK_SHIFT);
            if columns.contains_key(&column) {
                continue;
            }
            let old = first_old[&pos];
            let new = self.get(pos).unwrap_or_default();
            if old != new {
                cells.push(BlockChange { pos, old, new });
            }
        }
        let mut chunks: Vec<IVec3> = cells.iter().map(|c| chunk_of(c.pos)).collect();
        chunks.sort_unstable_by_key(|c| (c.x, c.y, c.z));
        chunks.dedup();
        let (mut loaded_columns, mut unloaded_columns) = (Vec::new(), Vec::new());
        for (column, was_loaded) in columns {
            if self.is_column_loaded(column.0, column.1) {
                loaded_columns.push(column);
            } else if was_loaded {
                unloaded_columns.push(column);
            }
        }
        loaded_columns.sort_unstable();
        unloaded_columns.sort_unstable();
        Changes {
            cells,
            chunks,
            loaded_columns,
            unloaded_columns,
            span: Some(span),
        }
    }

    /// Records that column `column` was loaded or unloaded, `was_loaded` before.
    pub(super) fn note_column(&mut self, chunk_x: i32, chunk_z: i32, was_loaded: bool) {
        if let Some(log) = self.changes.as_mut() {
            log.columns.entry((chunk_x, chunk_z)).or_insert(was_loaded);
        }
    }
}
