//! [`VersionedWorld`]: a world that tells which world it is and when it has changed, the
//! contract an index relies on.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::VoxelWorld;
use super::chunked::ChunkedWorld;

/// Which world instance something was built from: unique among the worlds of one process.
///
/// A version count alone cannot tell two worlds apart (two worlds, or a world and its clone,
/// may both be at version 5 with different cells), so an index remembers the world's id too
/// and trusts itself only for the same id and version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WorldId(u64);

impl WorldId {
    /// The id a router gives a world that reports no [`Revision`]: never handed out by
    /// [`WorldId::fresh`], so nothing prepared for a real world matches it.
    pub(crate) const UNTRACKED: WorldId = WorldId(u64::MAX);

    /// A new id, different from every id handed out before in this process.
    #[must_use]
    pub fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        // Relaxed: only uniqueness matters, and a u64 counter does not wrap in practice.
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// The id as a number (for logs).
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }
}

/// A world's identity and version at one moment ([`Revision::of`]): what a structure
/// derived from the world remembers, to tell later whether it still describes the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Revision {
    /// Which world.
    pub world: WorldId,
    /// Its version: differs from every earlier value once any cell has changed.
    pub version: u64,
}

impl Revision {
    /// The revision `world` is at now, when it gives a [`VoxelWorld::watch`]; `None` for a
    /// world that cannot tell when it changes.
    #[must_use]
    pub fn of<W: VoxelWorld + ?Sized>(world: &W) -> Option<Revision> {
        world.watch().map(|watch| Revision {
            world: watch.id(),
            version: watch.version(),
        })
    }
}

/// A [`WorldId`] to keep inside a world type: it takes a fresh id when the world is made
/// ([`Default`]) and when it is cloned ([`Clone`]), since a clone is a world of its own that
/// may change apart from the original. It compares equal to every other identity and hashes
/// to nothing, so a world deriving `PartialEq` or `Hash` keeps comparing by content.
#[derive(Debug)]
pub struct WorldIdentity(WorldId);

impl WorldIdentity {
    /// The id.
    #[must_use]
    pub const fn id(&self) -> WorldId {
        self.0
    }
}

impl Default for WorldIdentity {
    fn default() -> Self {
        Self(WorldId::fresh())
    }
}

impl Clone for WorldIdentity {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for WorldIdentity {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for WorldIdentity {}

impl std::hash::Hash for WorldIdentity {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// A read-only view of one world's identity and current version, shared with the world: a
/// structure derived from the world ([`NavGraph`](crate::engine::NavGraph)) keeps one to tell, without
/// being handed the world again, whether the world has changed since (see
/// [`VoxelWorld::watch`]). Cloning a watch watches the same world; cloning the world gives the
/// clone a watch of its own.
#[derive(Clone)]
pub struct WorldWatch(Arc<Watched>);

/// What a [`WorldWatch`] shares with its world.
#[derive(Debug)]
struct Watched {
    id: WorldId,
    version: AtomicU64,
}

impl WorldWatch {
    /// Which world is watched.
    #[must_use]
    pub fn id(&self) -> WorldId {
        self.0.id
    }

    /// The watched world's version now (see [`VersionedWorld::version`]).
    #[must_use]
    pub fn version(&self) -> u64 {
        // Relaxed: a reader on another thread learns of a write through whatever handed it
        // the world (a lock, a channel); the count itself orders nothing.
        self.0.version.load(Ordering::Relaxed)
    }
}

impl std::fmt::Debug for WorldWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldWatch")
            .field("id", &self.id().get())
            .field("version", &self.version())
            .finish()
    }
}

/// A world's identity and version counter, kept inside a world type that hands out
/// [`WorldWatch`]es: a fresh id when made ([`Default`]) and when cloned ([`Clone`], keeping the
/// version), like [`WorldIdentity`]; and like it, equal to every other and hashing to nothing,
/// so a world deriving `PartialEq` or `Hash` keeps comparing by content.
#[derive(Debug)]
pub struct LiveVersion(WorldWatch);

impl LiveVersion {
    /// A fresh identity at version `version`.
    fn starting_at(version: u64) -> Self {
        Self(WorldWatch(Arc::new(Watched {
            id: WorldId::fresh(),
            version: AtomicU64::new(version),
        })))
    }

    /// The world's id.
    #[must_use]
    pub fn id(&self) -> WorldId {
        self.0.id()
    }

    /// The version now.
    #[must_use]
    pub fn get(&self) -> u64 {
        self.0.version()
    }

    /// Counts one change. Takes `&mut self`, so the world's single writer needs no atomic
    /// read-modify-write: a load and a store.
    #[inline]
    pub fn bump(&mut self) {
        let version = &self.0.0.version;
        version.store(version.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// A watch of this world.
    #[must_use]
    pub fn watch(&self) -> WorldWatch {
        self.0.clone()
    }

    /// The same world's identity at its version now, counted apart from then on: what a
    /// read-only snapshot of the world keeps, so that it is known as the world it was taken
    /// of, at the version it was taken at, while the world moves on.
    pub(crate) fn frozen(&self) -> Self {
        Self(WorldWatch(Arc::new(Watched {
            id: self.id(),
            version: AtomicU64::new(self.get()),
        })))
    }
}

impl Default for LiveVersion {
    fn default() -> Self {
        Self::starting_at(0)
    }
}

impl Clone for LiveVersion {
    fn clone(&self) -> Self {
        Self::starting_at(self.get())
    }
}

impl PartialEq for LiveVersion {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LiveVersion {}

impl std::hash::Hash for LiveVersion {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// A world that tells which world it is and when it has changed, so that an index built from
/// it knows when it is stale or belongs to another world.
///
/// [`ChunkedWorld`] implements it with [`ChunkedWorld::version`], and a
/// [`crate::world::flat::FlatWorld`], which never changes, with 0. For your own storage, keep
/// a [`WorldIdentity`] in it for [`VersionedWorld::world_id`], and return from
/// [`VersionedWorld::version`] a counter that changes on every write that changes a cell's
/// passability or standability (a world that never changes may return a constant).
pub trait VersionedWorld: VoxelWorld {
    /// Which world this is: different for every world instance, clones included.
    fn world_id(&self) -> WorldId;

    /// A number that differs from every earlier value once any cell has changed.
    fn version(&self) -> u64;
}

impl VersionedWorld for ChunkedWorld {
    #[inline]
    fn world_id(&self) -> WorldId {
        ChunkedWorld::world_id(self)
    }

    #[inline]
    fn version(&self) -> u64 {
        ChunkedWorld::version(self)
    }
}

/// A [`crate::world::flat::FlatWorld`] cannot be changed after it is made: its version is always 0.
impl VersionedWorld for crate::world::flat::FlatWorld {
    #[inline]
    fn world_id(&self) -> WorldId {
        crate::world::flat::FlatWorld::world_id(self)
    }

    #[inline]
    fn version(&self) -> u64 {
        0
    }
}

macro_rules! forward_versioned {
    ($($ty:ty),*) => {$(
        impl<W: VersionedWorld + ?Sized> VersionedWorld for $ty {
            #[inline]
            fn world_id(&self) -> WorldId {
                (**self).world_id()
            }

            #[inline]
            fn version(&self) -> u64 {
                (**self).version()
            }
        }
    )*};
}

forward_versioned!(&W, &mut W, Box<W>, std::rc::Rc<W>, std::sync::Arc<W>);
