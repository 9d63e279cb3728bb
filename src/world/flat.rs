//! [`FlatWorld`]: a 2D grid as a voxel world. Every free cell `(x, y)` becomes the column
//! `(x, z = y)` with a solid floor at world y = 0 and air above it; a blocked cell becomes a wall
//! filling its column to the top of the world, which is exactly `agent height + 1` cells tall,
//! so no wall can be climbed and no floor dropped from. The walking rules of
//! [`crate::moves`] then give the 4-connected grid with diagonals off and the 8-connected grid
//! without corner cutting (the Moving AI convention) with diagonals on.

use glam::{IVec2, IVec3};

use crate::error::{Error, Result};
use crate::moves::agent::MAX_AGENT_SPAN;
use crate::world::grid::Grid2d;
use crate::world::versioned::{LiveVersion, WorldId};
use crate::world::{AROUND, Bounds, ColumnBits, VoxelWorld};

/// A [`Grid2d`] seen as a voxel world: the flat-world special case of the 3D engine (see
/// [`crate::flat`]).
///
/// The free cell `(x, y)` is the column `(x, z = y)`: a solid floor at world y = 0 and
/// `agent height` cells of air above it, so the agent stands at feet height 1
/// ([`FlatWorld::feet`]). A blocked cell is solid from y = 0 to the top. The world is
/// exactly `agent height + 1` cells tall and finite: nothing outside [`VoxelWorld::bounds`]
/// is passable or standable, so walls can neither be climbed nor stood on.
///
/// ```
/// use voxnav::flat::IVec2;
/// use voxnav::{IVec3, VoxelWorld};
/// use voxnav::world::{FlatWorld, parse_robot_grid};
///
/// let world = FlatWorld::new(parse_robot_grid("2 1\n0 1\n")?, 2)?;
/// assert_eq!(FlatWorld::feet(IVec2::new(0, 0)), IVec3::new(0, 1, 0));
/// assert!(world.is_standable(IVec3::new(0, 0, 0)));
/// assert!(world.is_passable(IVec3::new(0, 2, 0)));
/// assert!(!world.is_passable(IVec3::new(1, 1, 0)));
/// assert_eq!(world.bounds().map(|b| b.max), Some(IVec3::new(2, 3, 1)));
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FlatWorld {
    grid: Grid2d,
    /// The world's height in cells: agent height + 1.
    top: i32,
    identity: LiveVersion,
}

impl FlatWorld {
    /// The flat world of `grid` for an agent `agent_height` cells tall.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `agent_height` is 0 or more than
    /// [`MAX_AGENT_SPAN`].
    pub fn new(grid: Grid2d, agent_height: u32) -> Result<Self> {
        if agent_height == 0 || agent_height > MAX_AGENT_SPAN {
            return Err(Error::InvalidSetting(format!(
                "agent height must be 1 to {MAX_AGENT_SPAN}, found {agent_height}"
            )));
        }
        Ok(Self {
            grid,
            top: agent_height as i32 + 1,
            identity: LiveVersion::default(),
        })
    }

    /// Which world this is: every world gets its own id when made, a clone a new one.
    #[must_use]
    pub fn world_id(&self) -> WorldId {
        self.identity.id()
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid2d {
        &self.grid
    }

    /// The feet position of the agent standing in `cell`: `(x, 1, z = y)`.
    #[inline]
    #[must_use]
    pub const fn feet(cell: IVec2) -> IVec3 {
        IVec3::new(cell.x, 1, cell.y)
    }

    /// The grid cell of a feet position: `(x, y = z)`.
    #[inline]
    #[must_use]
    pub const fn cell(feet: IVec3) -> IVec2 {
        IVec2::new(feet.x, feet.z)
    }
}

impl FlatWorld {
    /// The window `y0 .. y0 + count` of a free column (a floor at y = 0, air above it) and of
    /// a blocked one (a wall from the ground to the top of the world).
    #[inline]
    fn column_kinds(&self, y0: i32, count: u32) -> [ColumnBits; 2] {
        let top = i64::from(self.top);
        [
            ColumnBits {
                passable: window_bits(y0, count, 1, top),
                standable: window_bits(y0, count, 0, 1),
                partial: 0,
            },
            ColumnBits {
                passable: 0,
                standable: window_bits(y0, count, 0, top),
                partial: 0,
            },
        ]
    }
}

impl VoxelWorld for FlatWorld {
    /// A flat world never changes: its version stays 0.
    fn watch(&self) -> Option<crate::world::WorldWatch> {
        Some(self.identity.watch())
    }

    #[inline]
    fn is_passable(&self, p: IVec3) -> bool {
        p.y >= 1 && p.y < self.top && self.grid.state(p.x, p.z) == Some(false)
    }

    #[inline]
    fn is_standable(&self, p: IVec3) -> bool {
        p.y >= 0
            && p.y < self.top
            && self
                .grid
                .state(p.x, p.z)
                .is_some_and(|blocked| blocked || p.y == 0)
    }

    /// One grid lookup answers the whole column.
    #[inline]
    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        let [free, wall] = self.column_kinds(y0, count);
        match self.grid.state(x, z) {
            None => ColumnBits::default(),
            Some(false) => free,
            Some(true) => wall,
        }
    }

    /// One grid lookup per column, the bit patterns computed once.
    #[inline]
    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        let [free, wall] = self.column_kinds(y0, count);
        std::array::from_fn(|i| {
            let (dx, dz) = AROUND[i];
            match self.grid.state(x + dx, z + dz) {
                None => ColumnBits::default(),
                Some(false) => free,
                Some(true) => wall,
            }
        })
    }

    #[inline]
    fn bounds(&self) -> Option<Bounds> {
        Some(Bounds::from_size(IVec3::new(
            self.grid.width as i32,
            self.top,
            self.grid.height as i32,
        )))
    }
}

/// The bits of the cells `lo..hi` (world heights) inside the window of `count` cells from
/// `y0` upward: bit `i` stands for height `y0 + i`.
#[inline]
fn window_bits(y0: i32, count: u32, lo: i64, hi: i64) -> u64 {
    let below = |n: i64| -> u64 {
        match n {
            ..=0 => 0,
            64.. => u64::MAX,
            n => (1u64 << n) - 1,
        }
    };
    let count = i64::from(count.min(64));
    let start = (lo - i64::from(y0)).clamp(0, count);
    let end = (hi - i64::from(y0)).clamp(0, count);
    below(end) & !below(start)
}
