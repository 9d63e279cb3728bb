//! Where the world had not loaded its chunks when a [`NavGraph`](super::NavGraph) was compiled
//! or updated, so that a start or goal there is refused naming its chunk.

use glam::IVec3;

use crate::world::{Bounds, VoxelWorld};

/// Which chunks of its world were not loaded ([`VoxelWorld::is_unloaded`]) when the graph was
/// compiled or last updated there: a start or goal there is refused as
/// [`InvalidFeet::Unloaded`](crate::world::InvalidFeet::Unloaded), naming its chunk.
#[derive(Debug, Clone, Default)]
pub(super) struct Unloaded {
    /// Whether the columns beyond the bounds are unloaded territory.
    pub(super) outside: bool,
    /// The chunk of the bounds' lowest corner.
    origin: IVec3,
    /// Chunks along each axis.
    dims: IVec3,
    /// One bit per chunk, x fastest, then z, then y; empty when every chunk was loaded.
    pub(super) bits: Vec<u64>,
}

impl Unloaded {
    /// What `world` has not loaded inside and around `bounds`.
    pub(super) fn of<W: VoxelWorld + ?Sized>(world: &W, bounds: Bounds) -> Self {
        let origin = bounds.min.div_euclid(IVec3::splat(16));
        let dims = (bounds.max - IVec3::ONE).div_euclid(IVec3::splat(16)) - origin + IVec3::ONE;
        let mut unloaded = Self {
            outside: world.is_unloaded(bounds.min - IVec3::X),
            origin,
            dims,
            bits: Vec::new(),
        };
        for cy in 0..dims.y {
            for cz in 0..dims.z {
                for cx in 0..dims.x {
                    // A cell of the chunk inside the bounds stands for the chunk.
                    let cell = ((origin + IVec3::new(cx, cy, cz)) * 16)
                        .clamp(bounds.min, bounds.max - IVec3::ONE);
                    if world.is_unloaded(cell) {
                        unloaded.mark(cell, true);
                    }
                }
            }
        }
        unloaded
    }

    /// The bit of the chunk holding `cell`, if it lies inside the bounds the bits cover.
    fn index(&self, cell: IVec3) -> Option<usize> {
        let c = cell.div_euclid(IVec3::splat(16)) - self.origin;
        let inside = c.cmpge(IVec3::ZERO).all() && c.cmplt(self.dims).all();
        inside.then(|| ((c.y * self.dims.z + c.z) * self.dims.x + c.x) as usize)
    }

    /// Records whether the chunk of `cell` is unloaded (nothing for a cell outside the
    /// bounds the bits cover).
    pub(super) fn mark(&mut self, cell: IVec3, unloaded: bool) {
        let Some(i) = self.index(cell) else {
            return;
        };
        if self.bits.is_empty() {
            if !unloaded {
                return;
            }
            let chunks = (self.dims.x * self.dims.y * self.dims.z) as usize;
            self.bits = vec![0; chunks.div_ceil(64)];
        }
        if unloaded {
            self.bits[i / 64] |= 1 << (i % 64);
        } else {
            self.bits[i / 64] &= !(1 << (i % 64));
        }
    }

    /// Whether `cell` lies in a chunk of the bounds the bits cover that is unloaded.
    pub(super) fn contains(&self, cell: IVec3) -> bool {
        self.index(cell).is_some_and(|i| {
            self.bits
                .get(i / 64)
                .is_some_and(|word| word >> (i % 64) & 1 != 0)
        })
    }
}
