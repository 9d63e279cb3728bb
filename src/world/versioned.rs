//! [`VersionedWorld`]: a world that tells when it has changed, the contract an index relies on.

use super::VoxelWorld;
use super::chunked::ChunkedWorld;

/// A world that tells when it has changed, so that an index built from it knows when it is
/// stale.
///
/// [`ChunkedWorld`] implements it with [`ChunkedWorld::version`], and a
/// [`crate::world::flat::FlatWorld`], which never changes, with 0. For your own storage,
/// return a counter that changes on every write that changes a cell's passability or
/// standability (a world that never changes may return a constant).
pub trait VersionedWorld: VoxelWorld {
    /// A number that differs from every earlier value once any cell has changed.
    fn version(&self) -> u64;
}

impl VersionedWorld for ChunkedWorld {
    #[inline]
    fn version(&self) -> u64 {
        ChunkedWorld::version(self)
    }
}

/// A [`crate::world::flat::FlatWorld`] cannot be changed after it is made: its version is always 0.
impl VersionedWorld for crate::world::flat::FlatWorld {
    #[inline]
    fn version(&self) -> u64 {
        0
    }
}

macro_rules! forward_versioned {
    ($($ty:ty),*) => {$(
        impl<W: VersionedWorld + ?Sized> VersionedWorld for $ty {
            #[inline]
            fn version(&self) -> u64 {
                (**self).version()
            }
        }
    )*};
}

forward_versioned!(&W, &mut W, Box<W>, std::rc::Rc<W>, std::sync::Arc<W>);
