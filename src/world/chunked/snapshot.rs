//! [`WorldSnapshot`]: a read-only copy of a [`ChunkedWorld`] at one version, for searches on
//! worker threads while the world's owner goes on writing.

use std::sync::Arc;

use super::ChunkedWorld;
use crate::world::versioned::{VersionedWorld, WorldId};

/// A read-only copy of a [`ChunkedWorld`] as it was at one version
/// ([`ChunkedWorld::snapshot`]), for searches on other threads while the world's owner (a
/// server's tick thread) goes on editing blocks and loading or unloading columns.
///
/// Taking one is cheap: the chunks are shared, behind an [`Arc`] each, so a snapshot copies
/// the chunk directory (a `u32` or a pointer per chunk), not the cells. A later write to the
/// world copies the chunk it changes if a snapshot still holds it (copy on write), so a
/// snapshot never sees a write made after it was taken. Cloning a snapshot shares it.
///
/// It reads exactly like the world did ([`Deref`](std::ops::Deref) to [`ChunkedWorld`]
/// and [`crate::VoxelWorld`]), and it is known as that world
/// ([`VersionedWorld::world_id`]) at the version it was taken at
/// ([`VersionedWorld::version`], [`crate::VoxelWorld::watch`], both frozen): a result
/// computed on it is a result for that version, and a structure derived from the world (a
/// graph, an index) tells from the version whether it describes the snapshot.
///
/// Thread safety: a snapshot is `Send + Sync` and never changes, so any number of threads may
/// search it at once; [`ChunkedWorld`] itself is `Send + Sync` too, with the usual rule that
/// writes need `&mut` (one writer, no readers meanwhile), which is why searches that must not
/// wait for the writer take a snapshot.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::world::VersionedWorld;
/// use voxnav::{Block, ChunkedWorld, VoxelWorld};
///
/// let mut world = ChunkedWorld::new();
/// world.set(IVec3::new(0, 0, 0), Block::Solid)?;
/// let snapshot = world.snapshot();
/// let seen = snapshot.version();
/// let worker = std::thread::spawn(move || snapshot.is_standable(IVec3::new(0, 0, 0)));
/// world.set(IVec3::new(0, 0, 0), Block::Air)?; // the tick thread goes on
/// assert!(worker.join().unwrap(), "the worker saw the world as it was");
/// assert!(world.version() > seen);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct WorldSnapshot(Arc<ChunkedWorld>);

impl ChunkedWorld {
    /// A read-only copy of the world as it is now, for searches on other threads: see
    /// [`WorldSnapshot`]. Costs a copy of the chunk directory, not of the chunks.
    #[must_use]
    pub fn snapshot(&self) -> WorldSnapshot {
        let copy = ChunkedWorld {
            chunks: self.chunks.clone(),
            index: self.index.clone(),
            bounds: self.bounds,
            dense: self.dense.clone(),
            live: self.live.frozen(),
            special_chunks: self.special_chunks,
            changes: None,
            absent: self.absent,
            shared: self.shared.clone(),
            free_chunks: Vec::new(),
            loaded: self.loaded.clone(),
        };
        WorldSnapshot(Arc::new(copy))
    }
}

impl std::ops::Deref for WorldSnapshot {
    type Target = ChunkedWorld;

    fn deref(&self) -> &ChunkedWorld {
        &self.0
    }
}

impl VersionedWorld for WorldSnapshot {
    #[inline]
    fn world_id(&self) -> WorldId {
        self.0.world_id()
    }

    #[inline]
    fn version(&self) -> u64 {
        self.0.version()
    }
}
