//! Bodies wider than one block: the world as a `w x w` box sees it ([`BoxView`]).
//!
//! An agent [`width`](crate::Agent::width) `w` wide has its feet cell at the **min-x, min-z
//! corner** of its box: at feet `f` its body is the cells `(f.x + a, f.y + dy, f.z + b)` for
//! `a, b` in `0..w` and `dy` in `0..height`. A route of such an agent is a route of that
//! corner; the entity's centre is at `f + (w / 2, 0, w / 2)` in block coordinates.
//!
//! Every rule of [`crate::moves`] and [`crate::moves::fly`] applies to a wide agent as it
//! stands, read in the [`BoxView`] of the world: a world in which each cell `p` stands for
//! the footprint `p + (a, 0, b)`, `a, b` in `0..w`, the horizontal layer of the box at the
//! height of `p`. In that view:
//!
//! - a cell is **passable** when every cell of its footprint is passable and no cell just
//!   under the footprint is a fence (a fence reaches half way into the cell above it, so a
//!   box never overlaps one: the game's "fits where every cell its box overlaps is
//!   passable");
//! - a cell is **standable** when any cell of its footprint is ("stands when any block under
//!   it holds it up"), and its **floor top** is the highest floor top among those (rule 6
//!   measures rises from the highest floor under the box);
//! - the **terrain** of a position is in water when every feet cell of the footprint is
//!   water; it is on a slow floor, near danger, in a door or in a cobweb when any feet cell
//!   is; a wide body never climbs ladders (the ladder flags are dropped: a ladder is one
//!   block wide, and mobs wider than a block do not climb in the game), but ladder blocks
//!   stay floors to stand on;
//! - the **extra cost** of a position is the world's extra cost of its feet (corner) cell.
//!
//! So a level walk needs the box's layer at the target clear and any floor under it; a drop
//! sweeps the whole box down; a step up needs room above the whole box; and a diagonal needs
//! the box at both side positions clear, which makes the swept area the union of the boxes
//! at both ends and the two corner columns `(f.x + w, f.z)` and `(f.x, f.z + w)` (for a
//! diagonal toward `+x`, `+z`; mirrored for the others). Deep water (rule 7) is the box's
//! feet and head layers all water; a swimming position (rule 8) is the feet layer all water,
//! the layer above not all water and no floor under any of it. Fliers and swimmers take the
//! box rule over the `w x height x w` body: a swimmer needs every cell of it in water.
//!
//! A width of 1 is the world itself: agents one block wide read the world directly, and
//! every answer they had stays.

use std::cell::Cell;

use glam::IVec3;

use crate::moves::agent::MAX_AGENT_WIDTH;
use crate::world::{AROUND, Bounds, ColumnBits, FULL_BLOCK, TerrainFlags, VoxelWorld, WorldWatch};

/// The world as a body `width` blocks wide sees it: each cell stands for the `width x width`
/// footprint whose min-x, min-z corner it is (see the [module docs](self) for what each
/// question answers). A walker, flier or swimmer of width `w` in a world follows the rules
/// of a one-wide agent in the view of width `w` of that world.
///
/// ```
/// use voxnav::{Block, ChunkedWorld, IVec3, VoxelWorld};
/// use voxnav::moves::BoxView;
///
/// let mut world = ChunkedWorld::new();
/// world.set(IVec3::new(1, 0, 0), Block::Solid)?;
/// let view = BoxView::new(&world, 2);
/// // The 2 x 2 footprint at (0, 0, 0) holds the block at x = 1: not passable.
/// assert!(!view.is_passable(IVec3::ZERO));
/// // The footprint above it is clear and has that block under it: a floor.
/// assert!(view.is_passable(IVec3::Y) && view.is_standable(IVec3::ZERO));
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BoxView<'a, W: ?Sized> {
    world: &'a W,
    width: i32,
    /// The lowest corner of the block of world cells around the last expansion,
    /// [`GRID_SIDE`] columns along x and z and [`PLAIN_LAYERS`] cells tall. Set by
    /// [`VoxelWorld::columns_around`], the first read of an expansion; `None` before.
    anchor: Cell<Option<IVec3>>,
    /// Whether the world said ([`VoxelWorld::is_plain_region`]) that the terrain of every
    /// cell of the block that the footprints around the expansion cover (its first
    /// `width + 2` columns along x and z) is plain: the common case, answered with one bulk
    /// read per expansion instead of a look-up per cell.
    plain: Cell<bool>,
    /// The world's terrain of the cells of the block, once asked, at index
    /// `(GRID_SIDE * dx + dz) * PLAIN_LAYERS + dy`, where the bit of that index in `known` is
    /// set: near special blocks, the moves of one expansion ask for the footprints of
    /// neighbouring targets and of the feet, which share most of their cells.
    memo: [Cell<TerrainFlags>; MEMO_CELLS],
    /// Which entries of `memo` hold the world's answer: a bit per cell, so that a new view
    /// or a moved block forgets everything with a few stores.
    known: [Cell<u64>; MEMO_WORDS],
}

/// The most columns along x and along z that the footprints around a position cover: `w + 2`,
/// for `w` up to 3.
const GRID_SIDE: usize = MAX_AGENT_WIDTH as usize + 2;

/// The layers of the block of cells around an expansion whose terrain a view asks the world
/// about in bulk: the highest 8 of the window a walker reads, which hold its feet, a step up
/// and the first cells of a drop with the default reach.
const PLAIN_LAYERS: usize = 8;

/// The most world columns the footprints around a position cover: `(w + 2) x (w + 2)`.
const GRID_CELLS: usize = GRID_SIDE * GRID_SIDE;

/// The cells of the block around an expansion whose terrain a view remembers.
const MEMO_CELLS: usize = GRID_CELLS * PLAIN_LAYERS;

/// The words of the bits saying which remembered cells are known.
const MEMO_WORDS: usize = MEMO_CELLS.div_ceil(64);

impl<'a, W: VoxelWorld + ?Sized> BoxView<'a, W> {
    /// The view of `world` for a body `width` blocks wide, `width` clamped to
    /// `1..=`[`MAX_AGENT_WIDTH`] ([`crate::Agent::validate`] refuses other widths).
    #[must_use]
    pub fn new(world: &'a W, width: u32) -> Self {
        Self {
            world,
            width: width.clamp(1, MAX_AGENT_WIDTH) as i32,
            anchor: Cell::new(None),
            plain: Cell::new(false),
            memo: [const { Cell::new(TerrainFlags::PLAIN) }; MEMO_CELLS],
            known: [const { Cell::new(0) }; MEMO_WORDS],
        }
    }

    /// Whether every cell of the footprint of `p` lies inside i32 (the others do not exist).
    #[inline]
    fn footprint_inside_i32(&self, p: IVec3) -> bool {
        p.x <= i32::MAX - (self.width - 1) && p.z <= i32::MAX - (self.width - 1)
    }

    /// The width of the body, in blocks.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width as u32
    }

    /// The cells of the footprint of `p`; `None` for those beyond the ends of `i32`, which
    /// do not exist.
    #[inline]
    fn footprint(&self, p: IVec3) -> impl Iterator<Item = Option<IVec3>> + use<'_, W> {
        (0..self.width).flat_map(move |b| {
            (0..self.width)
                .map(move |a| Some(IVec3::new(p.x.checked_add(a)?, p.y, p.z.checked_add(b)?)))
        })
    }

    /// The flags of the world's terrain of any cell of the footprint of `feet`, `SIDE` wide, and
    /// whether every cell is water: plain at once inside the block the world called plain.
    /// A width known at compile time lets the loops unroll.
    #[expect(
        clippy::inline_always,
        reason = "the terrain of every move's target, called from one place per width"
    )]
    #[inline(always)]
    fn footprint_terrain<const SIDE: i32>(&self, feet: IVec3) -> (TerrainFlags, bool) {
        if feet.x > i32::MAX - (SIDE - 1) || feet.z > i32::MAX - (SIDE - 1) {
            return self.edge_terrain(feet);
        }
        let mut any = TerrainFlags::PLAIN;
        let mut all_water = true;
        let mut add = |terrain: TerrainFlags| {
            any = any | terrain;
            all_water &= terrain.contains(TerrainFlags::IN_WATER);
        };
        if let Some(anchor) = self.anchor.get() {
            // The block is set only where it lies inside i32, so a wrapped difference below
            // its size is the footprint's offset in it.
            let dx = feet.x.wrapping_sub(anchor.x) as u32 as usize;
            let dy = feet.y.wrapping_sub(anchor.y) as u32 as usize;
            let dz = feet.z.wrapping_sub(anchor.z) as u32 as usize;
            let span = SIDE as usize;
            if dx + span <= GRID_SIDE && dz + span <= GRID_SIDE && dy < PLAIN_LAYERS {
                let covered = self.width as usize + 2;
                if self.plain.get() && dx + span <= covered && dz + span <= covered {
                    return (TerrainFlags::PLAIN, false);
                }
                for a in 0..span {
                    for b in 0..span {
                        let index = (GRID_SIDE * (dx + a) + dz + b) * PLAIN_LAYERS + dy;
                        let (word, bit) = (&self.known[index / 64], 1u64 << (index % 64));
                        let terrain = if word.get() & bit != 0 {
                            self.memo[index].get()
                        } else {
                            let cell = IVec3::new(feet.x + a as i32, feet.y, feet.z + b as i32);
                            let terrain = self.world.terrain(cell);
                            self.memo[index].set(terrain);
                            word.set(word.get() | bit);
                            terrain
                        };
                        add(terrain);
                    }
                }
                return (any, all_water);
            }
        }
        for a in 0..SIDE {
            for b in 0..SIDE {
                add(self
                    .world
                    .terrain(IVec3::new(feet.x + a, feet.y, feet.z + b)));
            }
        }
        (any, all_water)
    }

    /// [`BoxView::footprint_terrain`] of a footprint that reaches beyond the ends of i32,
    /// whose cells there do not exist: plain, and not water.
    #[cold]
    #[inline(never)]
    fn edge_terrain(&self, feet: IVec3) -> (TerrainFlags, bool) {
        let mut any = TerrainFlags::PLAIN;
        let mut all_water = true;
        for cell in self.footprint(feet) {
            let Some(cell) = cell else {
                all_water = false;
                continue;
            };
            let terrain = self.world.terrain(cell);
            any = any | terrain;
            all_water &= terrain.contains(TerrainFlags::IN_WATER);
        }
        (any, all_water)
    }

    /// Moves the block of remembered cells to `anchor` (forgetting what was remembered
    /// elsewhere), and asks the world whether the terrain of the part of it that footprints
    /// around `anchor + (1, 0, 1)` cover is all plain. The block must lie inside i32 along x
    /// and z.
    #[inline]
    fn remember_around(&self, anchor: IVec3) {
        // Cells above i32::MAX do not exist; every other one of the block is asked for.
        let top = IVec3::new(
            anchor.x + self.width + 1,
            anchor.y.saturating_add(PLAIN_LAYERS as i32 - 1),
            anchor.z + self.width + 1,
        );
        self.plain.set(self.world.is_plain_region(anchor, top));
        if self.anchor.get() != Some(anchor) {
            for word in &self.known {
                word.set(0);
            }
            self.anchor.set(Some(anchor));
        }
    }

    /// Whether the cell `c` of the world is a fence (its top above a full block).
    #[inline]
    fn is_fence(&self, c: IVec3) -> bool {
        self.world.floor_top(c) > FULL_BLOCK
    }

    /// The world's column at `x`, `z` from `y0`, `count <= 64` cells, with its `passable`
    /// bits cleared where the cell below is a fence.
    #[inline]
    fn column_without_fences(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        let count = count.min(64);
        let mut bits = self.world.column(x, z, y0, count);
        let window = low_bits(count);
        // Fences are partial cells; most columns have none.
        let mut partial = bits.partial & window;
        let mut fenced = 0u64;
        while partial != 0 {
            let i = partial.trailing_zeros();
            partial &= partial - 1;
            if self.is_fence(IVec3::new(x, y0 + i as i32, z)) {
                fenced |= 1u64 << i << 1;
            }
        }
        if y0
            .checked_sub(1)
            .is_some_and(|below| self.is_fence(IVec3::new(x, below, z)))
        {
            fenced |= 1;
        }
        bits.passable &= !fenced;
        bits
    }

    /// The bits of a column read from `low` (`count + 1` cells, `count < 64`) as the column
    /// from `low + 1` (`count` cells), its passable bits cleared over fences.
    #[inline]
    fn lift(&self, x: i32, z: i32, low: i32, count: u32, raw: ColumnBits) -> ColumnBits {
        let window = low_bits(count + 1);
        let mut partial = raw.partial & window;
        let mut fenced = 0u64;
        while partial != 0 {
            let i = partial.trailing_zeros();
            partial &= partial - 1;
            if self.is_fence(IVec3::new(x, low + i as i32, z)) {
                fenced |= 1u64 << i;
            }
        }
        ColumnBits {
            passable: ((raw.passable & window) >> 1) & !fenced,
            standable: (raw.standable & window) >> 1,
            partial: (raw.partial & window) >> 1,
        }
    }

    /// The 9 columns of the view around the grid's centre, from the world's `w + 2` by
    /// `w + 2` columns `grid` (`grid[gx * (w + 2) + gz]` at `x - 1 + gx`, `z - 1 + gz`).
    #[inline]
    fn combine_grid(&self, grid: &[ColumnBits; GRID_CELLS], count: u32) -> [ColumnBits; 9] {
        let mut out = match self.width {
            1 => combine_footprints::<1>(grid),
            2 => combine_footprints::<2>(grid),
            _ => combine_footprints::<3>(grid),
        };
        for column in &mut out {
            column.passable &= low_bits(count);
        }
        out
    }
}

/// The 9 footprints of width `W` around the centre of `grid` combined (`grid[gx * (W + 2) +
/// gz]` at `x - 1 + gx`, `z - 1 + gz`). The combination is separable: each column of the
/// grid is first combined with the `W - 1` after it along z, then those strips along x,
/// which takes `3 * (W + 2) + 9` combinations where combining each footprint whole takes
/// `9 * W * W`. A width known at compile time lets every loop unroll.
#[inline]
fn combine_footprints<const W: usize>(grid: &[ColumnBits; GRID_CELLS]) -> [ColumnBits; 9] {
    let side = W + 2;
    let mut strips = [[ColumnBits::default(); 3]; GRID_SIDE];
    for gx in 0..side {
        for gz in 0..3 {
            let mut out = grid[gx * side + gz];
            for b in 1..W {
                combine(&mut out, grid[gx * side + gz + b]);
            }
            strips[gx][gz] = out;
        }
    }
    std::array::from_fn(|i| {
        let (gx, gz) = ((AROUND[i].0 + 1) as usize, (AROUND[i].1 + 1) as usize);
        let mut out = strips[gx][gz];
        for a in 1..W {
            combine(&mut out, strips[gx + a][gz]);
        }
        out
    })
}

/// `n` low bits set (`n <= 64`).
#[inline]
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The flags a wide body takes from any cell of its footprint; [`TerrainFlags::IN_WATER`]
/// needs every cell, and the ladder flags none.
const ANY_CELL: [TerrainFlags; 5] = [
    TerrainFlags::ON_SLOW_FLOOR,
    TerrainFlags::NEAR_DANGER,
    TerrainFlags::IN_DOOR,
    TerrainFlags::IN_COBWEB,
    TerrainFlags::SWIMMING,
];

/// Combines the columns of one footprint: passable where all are, standable and partial where
/// any is. `partial` is thus set wherever a footprint cell is partial, more often than where
/// the view's floor top differs from a full block: that only sends the neighbour generator
/// to its cell-by-cell statement of the rules, which gives the same moves.
#[inline]
fn combine(into: &mut ColumnBits, column: ColumnBits) {
    into.passable &= column.passable;
    into.standable |= column.standable;
    into.partial |= column.partial;
}

impl<W: VoxelWorld + ?Sized> VoxelWorld for BoxView<'_, W> {
    #[inline]
    fn is_passable(&self, p: IVec3) -> bool {
        if !self.footprint_inside_i32(p) {
            // Cells beyond the ends of i32 do not exist, so are not passable.
            return false;
        }
        // Every cell first, then the fences under them: a blocked cell, the common way to
        // fail, costs no floor read.
        let cells = |b: i32| (0..self.width).map(move |a| IVec3::new(p.x + a, p.y, p.z + b));
        (0..self.width).all(|b| cells(b).all(|c| self.world.is_passable(c)))
            && p.y.checked_sub(1).is_none_or(|below| {
                (0..self.width)
                    .all(|b| cells(b).all(|c| !self.is_fence(IVec3::new(c.x, below, c.z))))
            })
    }

    #[inline]
    fn is_standable(&self, p: IVec3) -> bool {
        if !self.footprint_inside_i32(p) {
            return self
                .footprint(p)
                .any(|c| c.is_some_and(|c| self.world.is_standable(c)));
        }
        (0..self.width).any(|b| {
            (0..self.width).any(|a| self.world.is_standable(IVec3::new(p.x + a, p.y, p.z + b)))
        })
    }

    #[inline]
    fn extra_cost(&self, feet: IVec3) -> u32 {
        self.world.extra_cost(feet)
    }

    fn terrain(&self, feet: IVec3) -> TerrainFlags {
        let (any, all_water) = match self.width {
            2 => self.footprint_terrain::<2>(feet),
            3 => self.footprint_terrain::<3>(feet),
            _ => self.footprint_terrain::<1>(feet),
        };
        if any.is_plain() {
            // The common case: nothing special under, in or next to the box.
            return any;
        }
        let mut out = if all_water {
            TerrainFlags::IN_WATER
        } else {
            TerrainFlags::PLAIN
        };
        for flag in ANY_CELL {
            if any.contains(flag) {
                out = out | flag;
            }
        }
        out
    }

    fn floor_top(&self, p: IVec3) -> u8 {
        self.footprint(p)
            .flatten()
            .filter(|&c| self.world.is_standable(c) || self.is_fence(c))
            .map(|c| self.world.floor_top(c))
            .max()
            .unwrap_or(FULL_BLOCK)
    }

    fn bounds(&self) -> Option<Bounds> {
        // The box lies inside the world when its corner lies `width - 1` inside the high
        // ends of x and z.
        self.world.bounds().map(|b| {
            let inset = IVec3::new(self.width - 1, 0, self.width - 1);
            Bounds::new(b.min, (b.max - inset).max(b.min))
        })
    }

    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        let mut out = ColumnBits {
            passable: u64::MAX,
            ..ColumnBits::default()
        };
        for b in 0..self.width {
            for a in 0..self.width {
                match (x.checked_add(a), z.checked_add(b)) {
                    (Some(x), Some(z)) => {
                        combine(&mut out, self.column_without_fences(x, z, y0, count));
                    }
                    _ => out.passable = 0,
                }
            }
        }
        out.passable &= low_bits(count.min(64));
        out
    }

    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        // The footprints of the 9 columns cover the world's columns x - 1 ..= x + w,
        // z - 1 ..= z + w: read each once, then combine.
        let w = self.width;
        let side = (w + 2) as usize;
        let safe = x > i32::MIN && z > i32::MIN && x < i32::MAX - w && z < i32::MAX - w;
        if !safe {
            // Columns beyond the ends of i32 do not exist; `column` handles those.
            return std::array::from_fn(|i| {
                match (x.checked_add(AROUND[i].0), z.checked_add(AROUND[i].1)) {
                    (Some(x), Some(z)) => self.column(x, z, y0, count),
                    _ => ColumnBits::default(),
                }
            });
        }
        let count = count.min(64);
        let mut grid = [ColumnBits::default(); GRID_CELLS];
        // Read one cell lower than asked when there is room, so that a fence under the
        // lowest cell shows in the bits rather than costing a look-up per column.
        let Some(low) = y0.checked_sub(1).filter(|_| count < 64) else {
            for (i, cell) in grid.iter_mut().enumerate().take(side * side) {
                let (cx, cz) = (x - 1 + (i / side) as i32, z - 1 + (i % side) as i32);
                *cell = self.column_without_fences(cx, cz, y0, count);
            }
            return self.combine_grid(&grid, count);
        };
        // The terrain asked next is that of the targets of these columns.
        let layers = count.min(PLAIN_LAYERS as u32) as i32;
        let reach = GRID_SIDE as i32 - 2;
        if y0 <= i32::MAX - count as i32 && x <= i32::MAX - reach && z <= i32::MAX - reach {
            self.remember_around(IVec3::new(x - 1, y0 + count as i32 - layers, z - 1));
        }
        // One bulk read of the world's (w + 2) x (w + 2) columns.
        self.world
            .columns_square(x - 1, z - 1, low, count + 1, side as u32, &mut grid);
        let window = low_bits(count + 1);
        if grid.iter().all(|column| column.partial & window == 0) {
            // No fence to clear passable bits over (the common case): lifting each column
            // by one cell commutes with combining them, so lift the 9 combined ones.
            return self
                .combine_grid(&grid, count + 1)
                .map(|column| ColumnBits {
                    passable: column.passable >> 1,
                    standable: (column.standable & window) >> 1,
                    partial: 0,
                });
        }
        for (gx, row) in grid.chunks_exact_mut(side).take(side).enumerate() {
            for (gz, cell) in row.iter_mut().enumerate() {
                let (cx, cz) = (x - 1 + gx as i32, z - 1 + gz as i32);
                *cell = self.lift(cx, cz, low, count, *cell);
            }
        }
        self.combine_grid(&grid, count)
    }

    fn block(&self, p: IVec3) -> Option<crate::world::Block> {
        self.world.block(p)
    }

    fn watch(&self) -> Option<WorldWatch> {
        self.world.watch()
    }

    fn is_unloaded(&self, p: IVec3) -> bool {
        self.footprint(p)
            .any(|c| c.is_some_and(|c| self.world.is_unloaded(c)))
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use super::BoxView;
    use crate::world::VoxelWorld;
    use crate::{Block, ChunkedWorld};

    /// The terrain a view answers after a bulk read of the columns around a position (which
    /// may find the block around it all plain) is what a fresh view reads cell by cell: for
    /// every width, around positions on both sides of chunk borders in all three axes, for
    /// cells inside the block read, at its edges and outside it, asked twice (the second
    /// answer from the view's memory), and after the view read the columns around another
    /// position (which moves the block and forgets what it remembered).
    #[test]
    fn terrain_after_a_bulk_read_is_the_worlds() {
        let kinds = [
            Block::Air,
            Block::Air,
            Block::Solid,
            Block::Water,
            Block::Water,
            Block::Lava,
            Block::SlowFloor,
            Block::Ladder,
            Block::Door,
            Block::Cobweb,
        ];
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let coordinate = |r: u64| (r % 40) as i32 - 20;
        // Special blocks everywhere, and a few of them: the second world has blocks around
        // which the bulk read finds all plain, and others next to special ones.
        let (mut special, mut plain_blocks) = (0, 0);
        for blocks in [12_000, 150] {
            let mut world = ChunkedWorld::new();
            world
                .fill(IVec3::splat(-20), IVec3::new(19, -8, 19), Block::Solid)
                .unwrap();
            for _ in 0..blocks {
                let r = next();
                let p = IVec3::new(coordinate(r), coordinate(r >> 8), coordinate(r >> 16));
                world
                    .set(p, kinds[(r >> 32) as usize % kinds.len()])
                    .unwrap();
            }
            for width in 1..=3 {
                let view = BoxView::new(&world, width);
                for _ in 0..150 {
                    let r = next();
                    let p = IVec3::new(coordinate(r), coordinate(r >> 8), coordinate(r >> 16));
                    let count = [7, 9, 14][(r >> 24) as usize % 3];
                    let _ = view.columns_around(p.x, p.z, p.y - 4, count);
                    plain_blocks += usize::from(view.plain.get());
                    for dx in -3..=4 {
                        for dz in -3..=4 {
                            for dy in -6..=count as i32 - 2 {
                                let q = p + IVec3::new(dx, dy, dz);
                                let fresh = BoxView::new(&world, width).terrain(q);
                                assert_eq!(view.terrain(q), fresh, "width {width} at {q}");
                                assert_eq!(view.terrain(q), fresh, "width {width} at {q}, again");
                                special += usize::from(!fresh.is_plain());
                            }
                        }
                    }
                }
            }
        }
        // The bulk read answered for some blocks, not for all.
        assert!(
            (50..900).contains(&plain_blocks),
            "{plain_blocks} plain blocks"
        );
        // The comparison covered special terrain, not only plain cells.
        assert!(special > 10_000, "only {special} special answers");
    }
}
