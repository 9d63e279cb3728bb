//! The world layer: the [`VoxelWorld`] trait and its contracts (bounds, versions, valid feet
//! positions), the storages ([`chunked`], [`grid`], [`flat`]) and the file formats
//! ([`formats`]).

#[cfg(feature = "anvil")]
pub mod anvil;
pub mod bounds;
pub mod chunked;
pub mod dense;
pub mod flat;
pub mod formats;
pub mod grid;
pub mod key;
pub mod pick;
pub mod versioned;

pub use bounds::Bounds;
pub use chunked::{Block, BlockChange, CHUNK_SIZE, Changes, ChunkedWorld, WorldSnapshot};
pub use dense::DenseWorld;
pub use flat::FlatWorld;
pub use formats::movingai::{
    Scenario, load_movingai_map, load_movingai_scen, parse_movingai_map, parse_movingai_scen,
};
pub use formats::movingai3d::{
    VoxelScenario, VoxelScenarios, load_movingai_3dmap, load_movingai_3dscen, parse_movingai_3dmap,
    parse_movingai_3dscen,
};
pub use formats::robot::{load_robot_grid, parse_robot_grid};
pub use formats::text::{load_text_world, parse_text_world, save_text_world, to_text_world};
pub use grid::Grid2d;
pub use versioned::{LiveVersion, Revision, VersionedWorld, WorldId, WorldIdentity, WorldWatch};

use glam::IVec3;

use key::in_key_range;

/// Why a position is not a valid feet position for the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidFeet {
    /// The position lies outside the world's finite bounds (or the agent's body would reach
    /// above `i32::MAX`, outside every world).
    OutOfWorld,
    /// A cell the position needs (its feet, body or floor) lies in a chunk the world has not
    /// loaded ([`VoxelWorld::is_unloaded`]): nothing is known there yet.
    Unloaded {
        /// The chunk column's x: the cell's x divided by 16, rounded down.
        chunk_x: i32,
        /// The chunk column's z: the cell's z divided by 16, rounded down.
        chunk_z: i32,
    },
    /// The agent's body (feet to head) does not fit between the bottom and the top of the
    /// world: a head above the top, or feet below the bottom.
    OutsideHeight {
        /// The world's lowest y.
        min_y: i32,
        /// One past the world's highest y.
        max_y: i32,
    },
    /// The position lies outside the range that search keys can represent
    /// (x and z in `-2^25 .. 2^25`, y in `-2^11 .. 2^11`).
    OutOfKeyRange,
    /// The cell below the feet cannot be stood on.
    NoFloor {
        /// The cell under the feet.
        floor: IVec3,
    },
    /// A cell of the agent's body is not passable.
    NoHeadRoom {
        /// The first blocked cell, counting up from the feet.
        blocked: IVec3,
    },
    /// The position is not a node of the compiled walk graph searched
    /// ([`crate::graph::NavGraph`]): not a valid feet position when the graph was compiled
    /// or last updated.
    NotInGraph,
    /// A cell of a swimmer's body is not water.
    NotInWater {
        /// The first dry cell, counting up from the feet.
        cell: IVec3,
    },
}

impl std::fmt::Display for InvalidFeet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InvalidFeet::OutOfWorld => write!(f, "it is outside the world"),
            InvalidFeet::Unloaded { chunk_x, chunk_z } => {
                write!(f, "chunk ({chunk_x}, {chunk_z}) is not loaded")
            }
            InvalidFeet::OutsideHeight { min_y, max_y } => write!(
                f,
                "the agent's body is outside the world's height (y range {min_y}..{max_y})"
            ),
            InvalidFeet::OutOfKeyRange => write!(
                f,
                "it is outside the searchable range (x and z within +-33554432, y within +-2048)"
            ),
            InvalidFeet::NoFloor { floor } => write!(
                f,
                "there is no floor to stand on (cell {},{},{} below the feet is not standable)",
                floor.x, floor.y, floor.z
            ),
            InvalidFeet::NoHeadRoom { blocked } => write!(
                f,
                "the agent's body does not fit (cell {},{},{} is not passable)",
                blocked.x, blocked.y, blocked.z
            ),
            InvalidFeet::NotInGraph => write!(
                f,
                "it is not a valid feet position of the compiled walk graph (at its last update)"
            ),
            InvalidFeet::NotInWater { cell } => write!(
                f,
                "a swimmer's body must be in water (cell {},{},{} is not water)",
                cell.x, cell.y, cell.z
            ),
        }
    }
}

/// What a feet position is in, on and next to, as far as move costs and ladders care: a
/// small set of flags returned by [`VoxelWorld::terrain`].
///
/// ```
/// use voxnav::world::TerrainFlags;
/// let wet_and_risky = TerrainFlags::IN_WATER | TerrainFlags::NEAR_DANGER;
/// assert!(wet_and_risky.contains(TerrainFlags::IN_WATER));
/// assert!(!wet_and_risky.contains(TerrainFlags::ON_SLOW_FLOOR));
/// assert!(TerrainFlags::PLAIN.is_plain());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TerrainFlags(u8);

impl TerrainFlags {
    /// Nothing special: air or solid around. The default.
    pub const PLAIN: TerrainFlags = TerrainFlags(0);
    /// The feet cell is water.
    pub const IN_WATER: TerrainFlags = TerrainFlags(1);
    /// The cell below the feet is a slow floor (soul sand).
    pub const ON_SLOW_FLOOR: TerrainFlags = TerrainFlags(1 << 1);
    /// A dangerous cell (lava) lies in the 3x3x3 cube centred on the feet cell.
    pub const NEAR_DANGER: TerrainFlags = TerrainFlags(1 << 2);
    /// The feet cell is a ladder: the agent may climb up from here.
    pub const IN_LADDER: TerrainFlags = TerrainFlags(1 << 3);
    /// The cell below the feet is a ladder: the agent may climb down from here.
    pub const ON_LADDER: TerrainFlags = TerrainFlags(1 << 4);
    /// The feet cell is a door or fence gate that the agent opens to pass.
    pub const IN_DOOR: TerrainFlags = TerrainFlags(1 << 5);
    /// The feet cell or the cell above it (the head of a two-tall agent) is a cobweb.
    pub const IN_COBWEB: TerrainFlags = TerrainFlags(1 << 6);
    /// The position is a swimming position (rule 8 of [`crate::moves`]): the feet cell is
    /// water, the cell above it is not, and the cell below is no floor. Worlds do not set it:
    /// the walking rules add it ([`crate::moves::position_terrain`]), since it depends on three
    /// cells rather than on the feet cell.
    pub const SWIMMING: TerrainFlags = TerrainFlags(1 << 7);

    /// Whether every flag of `other` is set.
    #[inline]
    #[must_use]
    pub const fn contains(self, other: TerrainFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no flag is set.
    #[inline]
    #[must_use]
    pub const fn is_plain(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for TerrainFlags {
    type Output = TerrainFlags;

    #[inline]
    fn bitor(self, rhs: TerrainFlags) -> TerrainFlags {
        TerrainFlags(self.0 | rhs.0)
    }
}

/// A world of cells that an agent walks through.
///
/// Implement this on your own block storage; voxnav only asks these questions. All methods
/// take `&self`, so a world that is `Sync` can be shared by searches on many threads.
///
/// Cells outside a finite world (see [`VoxelWorld::bounds`]) must be neither passable nor
/// standable.
pub trait VoxelWorld {
    /// Whether the agent's body may occupy cell `p` (air, an open door, tall grass...).
    fn is_passable(&self, p: IVec3) -> bool;

    /// Whether the agent may stand on top of cell `p` (a solid floor).
    ///
    /// Defaults to `!self.is_passable(p)`, which is wrong for cells outside a finite world:
    /// worlds with bounds should override it.
    #[inline]
    fn is_standable(&self, p: IVec3) -> bool {
        !self.is_passable(p)
    }

    /// An extra, non-negative cost added when the agent's feet enter `feet` (mud, shallow
    /// water, slow blocks). Defaults to 0.
    #[inline]
    fn extra_cost(&self, feet: IVec3) -> u32 {
        let _ = feet;
        0
    }

    /// The special terrain at the feet position `feet`: water, a slow floor, nearby danger,
    /// ladders. Move costs add the matching [`MoveCosts`](crate::MoveCosts) terms for the
    /// target of every move, and ladders allow vertical moves (see [`crate::moves`]): the
    /// world says what is there, the agent's [`MoveCosts`](crate::MoveCosts) say what it
    /// costs. A world that reports [`TerrainFlags::IN_LADDER`] or [`TerrainFlags::ON_LADDER`] must make
    /// its ladder cells passable and standable. Defaults to [`TerrainFlags::PLAIN`].
    #[inline]
    fn terrain(&self, feet: IVec3) -> TerrainFlags {
        let _ = feet;
        TerrainFlags::PLAIN
    }

    /// Whether the [`VoxelWorld::terrain`] of every feet position from `min` to `max` (both
    /// corners inclusive) is [`TerrainFlags::PLAIN`]: one bulk read that spares the walking
    /// rules of a wide body ([`crate::moves::wide`]) the terrain look-ups of the cells around
    /// an expansion one by one. `true` promises that every one of those answers is plain;
    /// `false` promises nothing (the rules then ask cell by cell), so a world may answer
    /// `false` whenever finding out would cost more than it saves.
    ///
    /// Defaults to `false`, which is always right. Override it when your storage knows
    /// cheaply where it holds no special blocks, as [`crate::ChunkedWorld`] does per chunk.
    #[inline]
    fn is_plain_region(&self, min: IVec3, max: IVec3) -> bool {
        let _ = (min, max);
        false
    }

    /// The top of the collision box of cell `p`, in sixteenths of a block above the cell's
    /// bottom: [`FULL_BLOCK`] (16) for a full block, `1..=15` for a floor lower than a full
    /// block (a bottom slab is 8, snow of `n` layers `2 * (n - 1)`), [`FENCE_TOP`] (24) for a
    /// fence or wall, which reaches half way into the cell above.
    ///
    /// The walking rules read it for the floors the agent stands on (standable cells) and to
    /// find fences (see rule 6 of [`crate::moves`]); for other cells the value is not used.
    /// Keep [`ColumnBits::partial`] consistent with it when you override
    /// [`VoxelWorld::column`]. Defaults to [`FULL_BLOCK`] everywhere, so a world without
    /// partial blocks keeps the rules of whole cells.
    #[inline]
    fn floor_top(&self, p: IVec3) -> u8 {
        let _ = p;
        FULL_BLOCK
    }

    /// The finite bounds of the world, or `None` for an unbounded (procedural) world.
    ///
    /// Bounded worlds let searches without a budget end, let voxnav tell "outside the world"
    /// apart from "no floor" in errors, and let the search use a dense node index. Defaults to
    /// `None`.
    #[inline]
    fn bounds(&self) -> Option<Bounds> {
        None
    }

    /// The passable, standable and partial bits of `count` cells of the column at `x`, `z`,
    /// from `y0` upward: bit `i` describes cell `(x, y0 + i, z)`. `count` is at most 64.
    ///
    /// The neighbour generator reads whole columns through this method. The default asks
    /// [`VoxelWorld::is_passable`], [`VoxelWorld::is_standable`] and
    /// [`VoxelWorld::floor_top`] cell by cell; override it when your storage can answer a
    /// column at once (as [`crate::ChunkedWorld`] does), and keep it consistent with those
    /// three methods.
    #[inline]
    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        let mut bits = ColumnBits::default();
        for i in 0..count.min(64) {
            // Cells above i32::MAX do not exist: their bits stay clear.
            let Some(y) = y0.checked_add(i as i32) else {
                break;
            };
            let p = IVec3::new(x, y, z);
            bits.passable |= u64::from(self.is_passable(p)) << i;
            bits.standable |= u64::from(self.is_standable(p)) << i;
            bits.partial |= u64::from(self.floor_top(p) != FULL_BLOCK) << i;
        }
        bits
    }

    /// [`VoxelWorld::column`] for the 9 columns centred on `x`, `z`, in the order of
    /// [`AROUND`]. The default calls [`VoxelWorld::column`] 9 times.
    #[inline]
    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        std::array::from_fn(
            |i| match (x.checked_add(AROUND[i].0), z.checked_add(AROUND[i].1)) {
                (Some(x), Some(z)) => self.column(x, z, y0, count),
                // A column beyond the ends of i32 does not exist.
                _ => ColumnBits::default(),
            },
        )
    }

    /// [`VoxelWorld::column`] for the `side x side` columns whose lowest corner is `x`, `z`:
    /// `out[gx * side + gz]` is the column at `x + gx`, `z + gz`, for every such index below
    /// `out.len()` (the rest of `out` is left alone). `count` is at most 64, as for
    /// [`VoxelWorld::column`]; columns beyond the ends of i32 do not exist (all bits clear).
    ///
    /// The walking rules of a body wider than one block ([`crate::moves::wide`]) read the
    /// `(width + 2) x (width + 2)` columns around every position they expand through this
    /// method. The default calls [`VoxelWorld::column`] once per column; override it when your
    /// storage answers a block of columns at once (as [`crate::ChunkedWorld`] does, with one
    /// look-up per chunk touched), and keep it consistent with [`VoxelWorld::column`].
    #[inline]
    fn columns_square(
        &self,
        x: i32,
        z: i32,
        y0: i32,
        count: u32,
        side: u32,
        out: &mut [ColumnBits],
    ) {
        let side = side as usize;
        for (i, column) in out.iter_mut().take(side.saturating_mul(side)).enumerate() {
            let (gx, gz) = ((i / side) as i32, (i % side) as i32);
            *column = match (x.checked_add(gx), z.checked_add(gz)) {
                (Some(x), Some(z)) => self.column(x, z, y0, count),
                _ => ColumnBits::default(),
            };
        }
    }

    /// The passable cells of the block of 3 x 3 columns centred on `x`, `z`, `count` cells
    /// tall from `y0` upward, as one bitmask: bit `count * block_column(dx, dz) + i` (see
    /// [`block_column`]) is set when the cell `(x + dx, y0 + i, z + dz)` is passable, for
    /// `dx` and `dz` in `-1..=1` and `i` below `count`; the bits above `9 * count` are clear.
    /// `count` is at most [`MAX_BLOCK_HEIGHT`] (7: 9 columns of 7 cells fill 63 bits); a
    /// larger `count` reads 7 cells.
    ///
    /// The flying and swimming rules read the neighbourhood of every position they expand
    /// through this method (see [`crate::moves::fly`]). The default packs the passable bits
    /// of [`VoxelWorld::columns_around`]; override it when your storage answers passability
    /// alone faster (as [`crate::world::DenseWorld`] does), and keep it consistent with
    /// [`VoxelWorld::is_passable`]: cells outside a finite world, columns beyond the ends of
    /// i32 and cells above `i32::MAX` are not passable.
    #[inline]
    fn passable_block(&self, x: i32, z: i32, y0: i32, count: u32) -> u64 {
        let count = count.min(MAX_BLOCK_HEIGHT);
        // Masked, as `columns_around` does not promise clear bits above `count`.
        let window = (1u64 << count) - 1;
        let columns = self.columns_around(x, z, y0, count);
        let mut block = 0u64;
        for (column, &(dx, dz)) in columns.iter().zip(&AROUND) {
            block |= (column.passable & window) << (count * block_column(dx, dz));
        }
        block
    }

    /// The block at `p`, for worlds that store block kinds ([`crate::ChunkedWorld`] does):
    /// what a caller asks to tell kinds apart that every rule treats alike, such as
    /// [`Block::Leaves`] and [`Block::Solid`] (see [`pick::is_natural_ground`]). `None` (the
    /// default) when the world does not say.
    fn block(&self, p: IVec3) -> Option<Block> {
        let _ = p;
        None
    }

    /// A watch of this world's identity and version, for the structures derived from it (a
    /// compiled [`NavGraph`](crate::engine::NavGraph), and the engines that keep one) to refuse to
    /// answer once the world has changed without them ([`Error::StaleGraph`]) or when handed
    /// another world ([`Error::OtherWorld`]). [`crate::ChunkedWorld`] gives one; a world that
    /// gives none (the default) is trusted to be the one the structure was built from, as it
    /// is now: keep such structures up to date yourself.
    ///
    /// [`Error::StaleGraph`]: crate::Error::StaleGraph
    /// [`Error::OtherWorld`]: crate::Error::OtherWorld
    fn watch(&self) -> Option<WorldWatch> {
        None
    }

    /// Whether cell `p` lies in territory the world has not loaded yet (a chunk a server has
    /// not sent): such cells are neither passable nor standable, and errors about positions
    /// that need them name their chunk ([`InvalidFeet::Unloaded`]) rather than a blocked cell.
    /// A [`crate::ChunkedWorld`] whose absent chunks read as [`crate::Block::Barrier`] answers
    /// yes for its absent chunks and for columns outside its bounds. Defaults to `false`.
    fn is_unloaded(&self, p: IVec3) -> bool {
        let _ = p;
        false
    }
}

/// The columns [`VoxelWorld::columns_around`] reads: the centre first, then the 8 horizontal
/// neighbours in the order of [`crate::engine::DIRECTIONS`].
pub const AROUND: [(i32, i32); 9] = [
    (0, 0),
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The tallest block [`VoxelWorld::passable_block`] reads: 9 columns of 7 cells in 63 bits.
pub const MAX_BLOCK_HEIGHT: u32 = 7;

/// Where [`VoxelWorld::passable_block`] puts the column at offset `dx`, `dz` (each in
/// `-1..=1`) from the centre: `3 * (dx + 1) + (dz + 1)`, the columns numbered `x` first, then
/// `z`, from `(-1, -1)` (0) to `(1, 1)` (8). With the row `i` as the last digit, a block of 3
/// cells a column is the 3 x 3 x 3 cube in base 3, one bit per cell.
///
/// ```
/// use voxnav::world::block_column;
/// assert_eq!(block_column(-1, -1), 0);
/// assert_eq!(block_column(0, 0), 4);
/// assert_eq!(block_column(1, 0), 7);
/// ```
#[inline]
#[must_use]
pub const fn block_column(dx: i32, dz: i32) -> u32 {
    (3 * (dx + 1) + (dz + 1)) as u32
}

/// A run of up to 64 cells of one column, as bitmasks (bit `i` is the `i`-th cell upward).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColumnBits {
    /// Bit set where the cell is passable.
    pub passable: u64,
    /// Bit set where the cell is standable.
    pub standable: u64,
    /// Bit set where [`VoxelWorld::floor_top`] is not [`FULL_BLOCK`] (a partial floor or a
    /// fence): the neighbour generator takes the cell-by-cell path of rule 6 around such
    /// cells, and the whole-cell bitmask path everywhere else.
    pub partial: u64,
}

/// [`VoxelWorld::floor_top`] of a full block: 16 sixteenths.
pub const FULL_BLOCK: u8 = 16;

/// [`VoxelWorld::floor_top`] of a fence or wall: 24 sixteenths, 1.5 blocks.
pub const FENCE_TOP: u8 = 24;

macro_rules! forward_world {
    (concrete $ty:ty) => {
        impl $crate::world::VoxelWorld for $ty {
            $crate::world::forward_world!(@methods);
        }
    };
    ($($ty:ty),*) => {$(
        impl<W: $crate::world::VoxelWorld + ?Sized> $crate::world::VoxelWorld for $ty {
            $crate::world::forward_world!(@methods);
        }
    )*};
    (@methods) => {
            #[inline]
            fn is_passable(&self, p: $crate::IVec3) -> bool {
                (**self).is_passable(p)
            }
            #[inline]
            fn is_standable(&self, p: $crate::IVec3) -> bool {
                (**self).is_standable(p)
            }
            #[inline]
            fn extra_cost(&self, feet: $crate::IVec3) -> u32 {
                (**self).extra_cost(feet)
            }
            #[inline]
            fn terrain(&self, feet: $crate::IVec3) -> $crate::world::TerrainFlags {
                (**self).terrain(feet)
            }
            #[inline]
            fn is_plain_region(&self, min: $crate::IVec3, max: $crate::IVec3) -> bool {
                (**self).is_plain_region(min, max)
            }
            #[inline]
            fn floor_top(&self, p: $crate::IVec3) -> u8 {
                (**self).floor_top(p)
            }
            #[inline]
            fn bounds(&self) -> Option<$crate::world::Bounds> {
                (**self).bounds()
            }
            #[inline]
            fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> $crate::world::ColumnBits {
                (**self).column(x, z, y0, count)
            }
            #[inline]
            fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [$crate::world::ColumnBits; 9] {
                (**self).columns_around(x, z, y0, count)
            }
            #[inline]
            fn passable_block(&self, x: i32, z: i32, y0: i32, count: u32) -> u64 {
                (**self).passable_block(x, z, y0, count)
            }
            #[inline]
            fn columns_square(
                &self,
                x: i32,
                z: i32,
                y0: i32,
                count: u32,
                side: u32,
                out: &mut [$crate::world::ColumnBits],
            ) {
                (**self).columns_square(x, z, y0, count, side, out);
            }
            fn watch(&self) -> Option<$crate::world::WorldWatch> {
                (**self).watch()
            }
            fn block(&self, p: $crate::IVec3) -> Option<$crate::world::Block> {
                (**self).block(p)
            }
            fn is_unloaded(&self, p: $crate::IVec3) -> bool {
                (**self).is_unloaded(p)
            }
    };
}

/// Lets a wrapper that derefs to its world (the router's tracked view) forward every method.
pub(crate) use forward_world;

forward_world!(&W, &mut W, Box<W>, std::rc::Rc<W>, std::sync::Arc<W>);
forward_world!(concrete chunked::WorldSnapshot);

/// Whether the body of an agent `height` cells tall fits with its feet at `feet`: every cell
/// `feet, feet + Y, ..., feet + (height - 1) * Y` is passable. A body reaching above
/// `i32::MAX` never fits (those cells do not exist).
#[inline]
#[must_use]
pub fn body_fits<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, height: u32) -> bool {
    if i64::from(feet.y) + i64::from(height) > i64::from(i32::MAX) + 1 {
        return false;
    }
    (0..height).all(|dy| world.is_passable(IVec3::new(feet.x, feet.y + dy as i32, feet.z)))
}

/// Whether `feet` is a valid feet position: inside the searchable key range, the cell below
/// is standable and the body fits. Agrees with [`check_feet`] for every position.
#[inline]
#[must_use]
pub fn is_valid_feet<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, height: u32) -> bool {
    in_key_range(feet) && world.is_standable(feet - IVec3::Y) && body_fits(world, feet, height)
}

/// Like [`is_valid_feet`], but says why a position is not valid.
///
/// # Errors
/// The first reason found, in this order: out of the searchable key range; outside the
/// world's bounds across x or z ([`InvalidFeet::Unloaded`] when the world calls that
/// territory unloaded, [`InvalidFeet::OutOfWorld`] otherwise); a body from feet to head that
/// does not fit the world's height ([`InvalidFeet::OutsideHeight`]); a blocked body cell; no
/// floor. A blocked body cell or a missing floor in an unloaded chunk
/// ([`VoxelWorld::is_unloaded`]) is [`InvalidFeet::Unloaded`]. A body reaching above
/// `i32::MAX` (only an agent taller than [`Agent::validate`](crate::Agent::validate) allows
/// can) is [`InvalidFeet::OutOfWorld`].
pub fn check_feet<W: VoxelWorld + ?Sized>(
    world: &W,
    feet: IVec3,
    height: u32,
) -> Result<(), InvalidFeet> {
    if !in_key_range(feet) {
        return Err(InvalidFeet::OutOfKeyRange);
    }
    let unloaded = |cell: IVec3| InvalidFeet::Unloaded {
        chunk_x: cell.x.div_euclid(16),
        chunk_z: cell.z.div_euclid(16),
    };
    if let Some(bounds) = world.bounds() {
        let inside_columns = (bounds.min.x..bounds.max.x).contains(&feet.x)
            && (bounds.min.z..bounds.max.z).contains(&feet.z);
        if !inside_columns {
            return Err(if world.is_unloaded(feet) {
                unloaded(feet)
            } else {
                InvalidFeet::OutOfWorld
            });
        }
        let head = i64::from(feet.y) + i64::from(height.max(1)) - 1;
        if feet.y < bounds.min.y || head >= i64::from(bounds.max.y) {
            return Err(InvalidFeet::OutsideHeight {
                min_y: bounds.min.y,
                max_y: bounds.max.y,
            });
        }
    }
    for dy in 0..height {
        let Ok(y) = i32::try_from(i64::from(feet.y) + i64::from(dy)) else {
            return Err(InvalidFeet::OutOfWorld);
        };
        let cell = IVec3::new(feet.x, y, feet.z);
        if !world.is_passable(cell) {
            return Err(if world.is_unloaded(cell) {
                unloaded(cell)
            } else {
                InvalidFeet::NoHeadRoom { blocked: cell }
            });
        }
    }
    let floor = feet - IVec3::Y;
    if !world.is_standable(floor) {
        return Err(if world.is_unloaded(floor) {
            unloaded(floor)
        } else {
            InvalidFeet::NoFloor { floor }
        });
    }
    Ok(())
}
