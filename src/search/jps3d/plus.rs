//! Jumps precomputed (JPS+ in 3D): for every cell of a bounded world and each of the 6 face
//! and 12 edge directions, how far a jump from there runs before it must stop, so that a
//! search answers a face or an edge jump with one table read (and a few more on long open
//! lines) and a test of whether the goal lies where the jump would meet it.
//!
//! A face jump from `c` along `d` steps while the move is legal and stops at the first
//! position where a move is forced after arriving along `d`
//! ([`Tables::forced_moves`](super::canon::Tables::forced_moves), the test of the
//! cell-by-cell jump), or at the goal. An edge jump steps the same way and stops
//! also where the face jump along one of its two faces stops at a forced move (the sub-jumps
//! of the cell-by-cell jump), or where one of them meets the goal. The goal changes with the
//! query, the rest only with the world: the table holds the rest, and a query finds the one
//! position of an edge jump's line from which a face sub-jump can meet the goal (the goal's
//! offset along the edge's two axes fixes it) and reads that face jump.
//!
//! One byte per cell and direction: `JUMP | n` (`n` in `1..=127`): the jump stops at a
//! forced move `n` steps on; `n` in `0..=126`: `n` free steps, then a wall (the jump returns
//! nothing unless the goal is met within them); [`MORE`]: 127 free steps without a stop, read
//! the entry 127 steps on. The 18 bytes of a cell and its 27 "fits" bits (the neighbourhood
//! an expansion reads) lie together: 24 bytes per cell, one or two cache lines per
//! expansion.

use glam::IVec3;

use super::MAX_JUMP_HEIGHT;
use super::canon::rank;
use super::fits::{Fits, MAX_DENSE_WORDS};
use crate::error::{Error, Result};
use crate::moves::agent::Agent;
use crate::moves::fly::FREE_DIRECTIONS;
use crate::moves::wide::BoxView;
use crate::search::pages::huge_vec;
use crate::search::prefetch::prefetch;
use crate::world::{Bounds, Revision, VoxelWorld};

mod fill;
mod update;

/// The most cells the tables cover (24 bytes each: 400 MB), enough for `Simple` tiled
/// 3 x 1 x 3 (13.1 million cells, the tiled set of `benches/jps3d.rs`).
pub const MAX_TABLE_CELLS: u64 = 1 << 24;

/// The flag of an entry that ends at a stop.
const JUMP: u8 = 0x80;

/// The entry of 127 free steps without a stop: read again 127 steps on.
const MORE: u8 = 127;

/// Entries per cell: the 6 faces, then the 12 edges.
const SLOTS: usize = 18;

/// What the tables keep per cell: the "fits" bits around it and its jump entries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Cell {
    around: u32,
    jumps: [u8; SLOTS],
}

/// The jump distances of one world state for one agent (see the module notes): built once,
/// read by [`JumpSearch::find_path_with_tables`](super::JumpSearch::find_path_with_tables)
/// until the world changes, or brought up to date after blocks change
/// ([`JumpTables::apply_changes`], [`JumpTables::update`]: the lines through the changes only).
/// Bounded worlds of at most [`MAX_TABLE_CELLS`] cells only; 24 bytes per
/// cell.
///
/// ```
/// use voxnav::engine::JumpSearch;
/// use voxnav::search::jps3d::JumpTables;
/// use voxnav::world::DenseWorld;
/// use voxnav::{Agent, IVec3, MoveCosts, SearchOptions};
/// let world = DenseWorld::new(IVec3::new(8, 8, 8))?;
/// let tables = JumpTables::build(&world, Agent::flier(1))?;
/// let mut jps = JumpSearch::new(Agent::flier(1), MoveCosts::octile())?;
/// let options = SearchOptions::default();
/// let result = jps.find_path_with_tables(&tables, &world, IVec3::ZERO, IVec3::new(7, 3, 5), &options)?;
/// assert_eq!(result.path.len(), 8);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct JumpTables {
    agent: Agent,
    bounds: Bounds,
    size: IVec3,
    /// The cell `(x, y, z)` (relative to the bounds' low corner) at
    /// `(x * size.y + y) * size.z + z`.
    cells: Vec<Cell>,
    /// By direction of [`FREE_DIRECTIONS`]: its entry in a cell (faces and edges; 0 for
    /// corners), how far the index moves one step along it, and 127 steps along it.
    slot: [usize; 26],
    step: [isize; 26],
    more_step: [isize; 26],
    /// The face direction along each axis, backwards (`[axis][0]`) and forwards (`[1]`), and
    /// the two face directions of each edge direction (`None` for the others).
    face_dir: [[usize; 2]; 3],
    sub_faces: [Option<[usize; 2]>; 26],
    /// The "fits" words of the world, all filled: what an update reads again around a
    /// change.
    fits: Fits,
    /// The world and version the tables describe, when the world can tell
    /// ([`Revision::of`]).
    source: Option<Revision>,
}

/// By direction of [`FREE_DIRECTIONS`]: for an edge, the two axes it changes, then the
/// third (unused for the others).
const EDGE_AXES: [[usize; 3]; 26] = {
    let mut axes = [[0; 3]; 26];
    let mut dir = 0;
    while dir < 26 {
        let d = FREE_DIRECTIONS[dir];
        axes[dir] = if d.x == 0 {
            [1, 2, 0]
        } else if d.y == 0 {
            [0, 2, 1]
        } else {
            [0, 1, 2]
        };
        dir += 1;
    }
    axes
};

/// The entry of a cell whose move along the line is legal and whose next position is no
/// stop, from the entry of that next position.
#[inline]
fn one_more(next: u8) -> u8 {
    ONE_MORE[next as usize]
}

/// [`one_more`] of every entry, looked up: the sweeps of a build take it for most entries.
const ONE_MORE: [u8; 256] = {
    let mut table = [0; 256];
    let mut next = 0;
    while next < 256 {
        let entry = next as u8;
        table[next] = if entry & JUMP != 0 {
            let n = entry & !JUMP;
            if n < 127 { JUMP | (n + 1) } else { MORE }
        } else if entry < MORE {
            entry + 1
        } else {
            // 126 free steps and one more are `MORE` (a wall 0 steps after the 127th).
            MORE
        };
        next += 1;
    }
    table
};

/// Tables are equal when they are of the same agent over the same bounds and hold the same
/// entries, cell by cell (neighbourhoods and every face and edge entry); which world version
/// they describe is not compared. Tables brought up to date equal a fresh build of the world
/// as it is now.
impl PartialEq for JumpTables {
    fn eq(&self, other: &Self) -> bool {
        self.agent == other.agent && self.bounds == other.bounds && self.cells == other.cells
    }
}

impl Eq for JumpTables {}

impl JumpTables {
    /// The tables of `agent` (a flier or swimmer one to [`MAX_JUMP_HEIGHT`] cells tall, of any
    /// width the rules take) in `world` as it is now. Reads every cell of the world once,
    /// and takes 8 bytes per cell more while it builds; after the world changes, bring them
    /// up to date ([`JumpTables::apply_changes`]) or build them again.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for an invalid agent, a walker or a body taller than
    /// [`MAX_JUMP_HEIGHT`]; [`Error::NeedsBounds`] for a world without finite bounds (or an
    /// empty one); [`Error::InvalidSetting`] for one of more than [`MAX_TABLE_CELLS`] cells.
    pub fn build<W: VoxelWorld + ?Sized>(world: &W, agent: Agent) -> Result<Self> {
        agent.validate()?;
        if !agent.movement.is_free() || agent.height > MAX_JUMP_HEIGHT {
            return Err(Error::InvalidSetting(format!(
                "jump tables are for fliers and swimmers up to {MAX_JUMP_HEIGHT} cells tall, \
                 not a {} agent {} cells tall",
                agent.movement.as_str(),
                agent.height
            )));
        }
        let mut tables = match agent.width {
            1 => Self::fill(world, agent),
            width => Self::fill(&BoxView::new(world, width), agent),
        }?;
        tables.source = Revision::of(world);
        Ok(tables)
    }

    /// Whether the tables describe `world` as it is now: `Ok` for the world they were built
    /// from at the version they were built at, and for any world when the world they were
    /// built from could not tell its version (no [`VoxelWorld::watch`]: then keeping the
    /// tables current is the caller's business).
    ///
    /// # Errors
    /// [`Error::OtherWorld`] for another world than the one they were built from;
    /// [`Error::StaleJumpTables`] for that world at a later version.
    pub fn check_current<W: VoxelWorld + ?Sized>(&self, world: &W) -> Result<()> {
        let Some(built) = self.source else {
            return Ok(());
        };
        match Revision::of(world) {
            Some(now) if now.world == built.world => {
                if now.version == built.version {
                    Ok(())
                } else {
                    Err(Error::StaleJumpTables {
                        built: built.version,
                        now: now.version,
                    })
                }
            }
            given => Err(Error::OtherWorld {
                what: "jump tables",
                built: built.world.get(),
                given: given.map(|now| now.world.get()),
            }),
        }
    }

    fn fill<W: VoxelWorld + ?Sized>(world: &W, agent: Agent) -> Result<Self> {
        let bounds = world
            .bounds()
            .filter(|b| !b.is_empty())
            .ok_or(Error::NeedsBounds("jump tables"))?;
        let cells = bounds.volume();
        if cells > MAX_TABLE_CELLS {
            return Err(Error::InvalidSetting(format!(
                "jump tables cover at most {MAX_TABLE_CELLS} cells, and the world's bounds \
                 ({} to {}) hold {cells}",
                bounds.min, bounds.max
            )));
        }
        let size = bounds.size();
        let mut fits = Fits::default();
        fits.start(world, &agent, false);
        if !fits.fill_all(world) {
            return Err(Error::InvalidSetting(format!(
                "jump tables need the world's columns in at most {MAX_DENSE_WORDS} words of \
                 62 cells, and the bounds {} to {} need more",
                bounds.min, bounds.max
            )));
        }
        let axis_step = [i64::from(size.y) * i64::from(size.z), i64::from(size.z), 1];
        let step = FREE_DIRECTIONS
            .map(|d| (0..3).map(|i| i64::from(d[i]) * axis_step[i]).sum::<i64>() as isize);
        let face_dir: [[usize; 2]; 3] = std::array::from_fn(|axis| {
            [-1, 1].map(|sign| {
                let d = IVec3::AXES[axis] * sign;
                FREE_DIRECTIONS.iter().position(|&e| e == d).unwrap_or(0)
            })
        });
        let sub_faces = FREE_DIRECTIONS.map(|d| {
            let mut axes = (0..3).filter(|&axis| d[axis] != 0);
            match (axes.next(), axes.next(), axes.next()) {
                (Some(a), Some(b), None) => {
                    Some([a, b].map(|axis| face_dir[axis][usize::from(d[axis] > 0)]))
                }
                _ => None,
            }
        });
        let (mut faces, mut edges) = (0, 6);
        let slot = FREE_DIRECTIONS.map(|d| match rank(d) {
            1 => {
                faces += 1;
                faces - 1
            }
            2 => {
                edges += 1;
                edges - 1
            }
            _ => 0,
        });
        let mut tables = Self {
            agent,
            bounds,
            size,
            cells: huge_vec(cells as usize, Cell::default()),
            slot,
            step,
            more_step: step.map(|s| s * isize::from(MORE)),
            face_dir,
            sub_faces,
            fits,
            source: None,
        };
        tables.fill_all(fill::forced_tables());
        Ok(tables)
    }

    /// The agent the tables were built for.
    #[must_use]
    pub fn agent(&self) -> Agent {
        self.agent
    }

    /// The bounds of the world the tables were built for.
    #[must_use]
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// The bytes the tables take.
    #[must_use]
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.cells.len() * std::mem::size_of::<Cell>()
            + self.fits.bytes()
    }

    /// The "fits" bits around `p` (see [`Fits::around`]), none outside the bounds.
    #[inline]
    pub(super) fn around(&self, p: IVec3) -> u32 {
        self.index(p).map_or(0, |i| self.around_at(i))
    }

    /// The "fits" bits around the cell `index`.
    #[inline]
    pub(super) fn around_at(&self, index: usize) -> u32 {
        self.cells[index].around
    }

    /// The face or edge jump from `from` (the cell `index`) in the direction `dir`, an edge
    /// jump reading at most `edge_limit` positions: see [`JumpTables::face_jump`] and
    /// [`JumpTables::edge_jump`]. The landing and how many steps away it is.
    #[inline]
    pub(super) fn jump_at(
        &self,
        index: usize,
        from: IVec3,
        dir: usize,
        goal: IVec3,
        edge_limit: u32,
    ) -> Option<(IVec3, u32)> {
        if self.slot[dir] < 6 {
            self.face_jump_at(index, from, dir, goal)
        } else {
            self.edge_jump_at(index, from, dir, goal, edge_limit)
        }
    }

    /// Asks for the cell `index`'s bytes ahead of reading them ([`prefetch`]).
    #[inline]
    pub(super) fn prefetch_cell(&self, index: usize) {
        prefetch(&self.cells, index);
    }

    /// The cell `steps` steps from the cell `index` in the direction `dir`, which the caller
    /// knows to lie in the bounds.
    #[inline]
    pub(super) fn index_along(&self, index: usize, dir: usize, steps: u32) -> usize {
        index.wrapping_add_signed(self.step[dir] * steps as isize)
    }

    /// The most steps a jump can take in the tables' world: its longest side.
    pub(super) fn longest_line(&self) -> u32 {
        self.size.max_element() as u32
    }

    /// The index of the cell `p`, `None` outside the bounds.
    #[inline]
    pub(super) fn index(&self, p: IVec3) -> Option<usize> {
        let r = p - self.bounds.min;
        let size = self.size;
        // Negative components wrap to large unsigned ones, outside the size too.
        if r.x as u32 >= size.x as u32 || r.y as u32 >= size.y as u32 || r.z as u32 >= size.z as u32
        {
            return None;
        }
        Some((r.x as usize * size.y as usize + r.y as usize) * size.z as usize + r.z as usize)
    }

    /// How far the jump from the cell `index` in the direction `dir` (a face or an edge)
    /// runs: the steps to its stop or to its last free position, and whether it stops.
    #[inline]
    fn reach(&self, mut index: usize, dir: usize) -> Option<(i32, bool)> {
        let slot = self.slot[dir];
        let mut done = 0i32;
        loop {
            let entry = self.cells.get(index)?.jumps[slot];
            if entry != MORE {
                return Some((done + i32::from(entry & !JUMP), entry & JUMP != 0));
            }
            done += i32::from(MORE);
            // A `MORE` entry says the cell 127 steps on lies inside the bounds.
            index = index.wrapping_add_signed(self.more_step[dir]);
        }
    }

    /// The face jump from `from` in the face direction `dir` (an index of
    /// [`FREE_DIRECTIONS`]): the goal when it lies on the line before the stop, else the
    /// first position with a forced move, `None` when a wall comes first.
    #[inline]
    pub(super) fn face_jump(&self, from: IVec3, dir: usize, goal: IVec3) -> Option<IVec3> {
        self.face_jump_at(self.index(from)?, from, dir, goal)
            .map(|(to, _)| to)
    }

    /// [`JumpTables::face_jump`] from the cell `index`, at `from`, with the steps to the
    /// landing.
    #[inline]
    fn face_jump_at(
        &self,
        index: usize,
        from: IVec3,
        dir: usize,
        goal: IVec3,
    ) -> Option<(IVec3, u32)> {
        let d = FREE_DIRECTIONS[dir];
        let to_goal = goal - from;
        let along = to_goal.dot(d);
        let (reach, stops) = self.reach(index, dir)?;
        if along > 0 && to_goal == d * along && along <= reach {
            return Some((goal, along as u32));
        }
        stops.then(|| (from + d * reach, reach as u32))
    }

    /// The edge jump from `from` in the edge direction `dir`, reading at most `limit`
    /// positions (as the cell-by-cell jump: the position after them is returned): the first
    /// position that is the goal, has a forced move, or from which a face jump along one of
    /// the edge's two axes meets the goal or a forced move; `None` when a wall comes first.
    #[inline]
    pub(super) fn edge_jump(
        &self,
        from: IVec3,
        dir: usize,
        goal: IVec3,
        limit: u32,
    ) -> Option<IVec3> {
        self.edge_jump_at(self.index(from)?, from, dir, goal, limit)
            .map(|(to, _)| to)
    }

    /// [`JumpTables::edge_jump`] from the cell `index`, at `from`, with the steps to the
    /// landing.
    #[expect(
        clippy::inline_always,
        reason = "left out of line at `#[inline]`: 14% more instructions on the large set"
    )]
    #[inline(always)]
    fn edge_jump_at(
        &self,
        index: usize,
        from: IVec3,
        dir: usize,
        goal: IVec3,
        limit: u32,
    ) -> Option<(IVec3, u32)> {
        let d = FREE_DIRECTIONS[dir];
        let (reach, stops) = self.reach(index, dir)?;
        let mut best = if stops { reach } else { i32::MAX };
        // The goal can be met only from the position whose offset to it is 0 along the
        // edge's shorter axis: on the line itself, or on a face line from there.
        let offset = goal - from;
        let [first, second, other] = EDGE_AXES[dir];
        if offset[other] == 0 {
            let along = (offset[first] * d[first], offset[second] * d[second]);
            let steps = along.0.min(along.1);
            if steps >= 1 && steps <= reach && steps < best {
                // Before the stop no face jump from the line meets a forced move: one that
                // returns something has met the goal.
                let met = along.0 == along.1 || {
                    let axis = if along.0 > along.1 { first } else { second };
                    let face = self.face_dir[axis][usize::from(d[axis] > 0)];
                    self.face_jump(from + d * steps, face, goal).is_some()
                };
                if met {
                    best = steps;
                }
            }
        }
        let limited = i64::from(limit) + 1;
        if limited <= i64::from(reach) && limited < i64::from(best) {
            best = limited as i32;
        }
        (best != i32::MAX).then(|| (from + d * best, best as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::agent::MoveCosts;
    use crate::search::jps3d::canon::Tables;
    use crate::search::jps3d::face::tests::face_jump_by_cells;
    use crate::world::{Block, ChunkedWorld};

    /// The edge jump cell by cell, as the search's stepped jump makes it: the goal, the first
    /// position with a forced move or from which a face jump along one of the edge's axes
    /// returns something, the position `limit + 1` steps on, or `None` at a wall.
    pub(in crate::search::jps3d) fn edge_jump_by_cells<W: VoxelWorld + ?Sized>(
        tables: &Tables,
        fits: &mut Fits,
        world: &W,
        from: IVec3,
        dir: usize,
        goal: IVec3,
        limit: u32,
    ) -> Option<IVec3> {
        let d = FREE_DIRECTIONS[dir];
        let (mut at, mut steps) = (from, limit);
        loop {
            let required = tables.required[dir];
            if fits.around(world, at) & required != required {
                return None;
            }
            let next = at + d;
            if next == goal || steps == 0 {
                return Some(next);
            }
            steps -= 1;
            if tables.forced_moves(dir, fits.around(world, next)) != 0 {
                return Some(next);
            }
            for axis in (0..3).filter(|&axis| d[axis] != 0) {
                let face = IVec3::AXES[axis] * d[axis];
                let face = FREE_DIRECTIONS.iter().position(|&e| e == face).unwrap();
                if face_jump_by_cells(tables, fits, world, next, face, goal, 0).is_some() {
                    return Some(next);
                }
            }
            at = next;
        }
    }

    /// Every position inside the bounds has its own cell, and none outside has one: for
    /// worlds of sides from 1 to 19 cells at negative and positive offsets (what a change of
    /// the cells' layout must keep; the other tests compare tables with tables, or read
    /// neighbourhoods only).
    #[test]
    fn every_position_has_its_own_cell() {
        let mut next = crate::testing::xorshift(0x5851_F42D_4C95_7F2D);
        let mut seen = Vec::new();
        for _ in 0..40 {
            let min = IVec3::new(
                (next() % 2_000) as i32 - 1_000,
                (next() % 2_000) as i32 - 1_000,
                (next() % 2_000) as i32 - 1_000,
            );
            let size = IVec3::new(
                1 + (next() % 19) as i32,
                1 + (next() % 19) as i32,
                1 + (next() % 19) as i32,
            );
            let world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
            let tables = JumpTables::build(&world, Agent::flier(1)).unwrap();
            seen.clear();
            seen.resize(tables.cells.len(), false);
            for x in -1..=size.x {
                for y in -1..=size.y {
                    for z in -1..=size.z {
                        let r = IVec3::new(x, y, z);
                        let index = tables.index(min + r);
                        if !tables.inside(r) {
                            assert_eq!(index, None, "{r} in {size}");
                            continue;
                        }
                        let index = index.unwrap();
                        assert!(!seen[index], "{r} in {size} shares the cell {index}");
                        seen[index] = true;
                        assert_eq!(index, tables.relative_index(r));
                    }
                }
            }
            assert!(
                seen.iter().all(|&seen| seen),
                "a cell of no position in {size}"
            );
        }
    }

    /// The tables' face and edge jumps stop where the cell-by-cell jumps stop (at forced
    /// moves, where a face sub-jump meets a forced move or the goal, at the goal, at the
    /// limit, or nowhere at a wall), along every face and edge direction, on random worlds
    /// with lines of more than 127 free steps (straight and diagonal), at negative and
    /// positive offsets, for fliers and swimmers one to three cells tall and two wide.
    #[test]
    fn table_jumps_stop_where_the_cell_by_cell_jump_stops() {
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let tables = Tables::new(&MoveCosts::octile());
        let mut fits = Fits::default();
        let (mut jumps, mut long, mut long_edges, mut met_by_face) = (0, 0, 0, 0);
        for round in 0..12u32 {
            let min = IVec3::new(
                (next() % 200) as i32 - 100,
                (next() % 200) as i32 - 100,
                (next() % 200) as i32 - 100,
            );
            let mut size = IVec3::new(
                8 + (next() % 20) as i32,
                8 + (next() % 20) as i32,
                8 + (next() % 20) as i32,
            );
            // One long axis in turn, or two, so that lines of more than 127 free steps
            // occur, straight and diagonal.
            let axis = (round % 3) as usize;
            if round % 4 == 3 {
                size = IVec3::splat(130 + (next() % 30) as i32);
                size[axis] = 6 + (next() % 4) as i32;
            } else {
                size[axis] = 300 + (next() % 100) as i32;
            }
            let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
            // Solid blocks per 10 000: the open worlds have long diagonal runs.
            let solid = if round % 4 == 3 {
                next() % 3
            } else {
                next() % 600
            };
            for x in 0..size.x {
                for y in 0..size.y {
                    for z in 0..size.z {
                        let p = min + IVec3::new(x, y, z);
                        let roll = next() % 10_000;
                        if roll < solid {
                            world.set(p, Block::Solid).unwrap();
                        } else if roll < 5_000 {
                            world.set(p, Block::Water).unwrap();
                        }
                    }
                }
            }
            let agent = match round % 4 {
                1 => Agent::swimmer(2),
                2 => Agent::flier(3).with_width(2),
                _ => Agent::flier(1),
            };
            let plus = JumpTables::build(&world, agent).unwrap();
            // The world as the body sees it (itself for a body one cell wide).
            let view = BoxView::new(&world, agent.width);
            fits.start(&view, &agent, false);
            let random = |next: &mut dyn FnMut() -> u64| {
                min + IVec3::new(
                    (next() % size.x as u64) as i32,
                    (next() % size.y as u64) as i32,
                    (next() % size.z as u64) as i32,
                )
            };
            for _ in 0..150 {
                // Half the starts near a corner, where the longest diagonals begin.
                let at = if next().is_multiple_of(2) {
                    random(&mut next)
                } else {
                    let near = |n: i32, r: u64| {
                        let t = (r >> 1) as i32 % n.min(4);
                        if r & 1 == 0 { t } else { n - 1 - t }
                    };
                    min + IVec3::new(
                        near(size.x, next()),
                        near(size.y, next()),
                        near(size.z, next()),
                    )
                };
                if !fits.fits(&view, at) {
                    continue;
                }
                assert_eq!(plus.around(at), fits.around(&view, at), "{at}");
                for dir in (0..26).filter(|&j| rank(FREE_DIRECTIONS[j]) <= 2) {
                    let d = FREE_DIRECTIONS[dir];
                    let axes: Vec<usize> = (0..3).filter(|&a| d[a] != 0).collect();
                    let face = IVec3::AXES[axes[next() as usize % axes.len()]];
                    // Goals on the line (some past the stop), on a face line from it, off it.
                    let goal = match next() % 4 {
                        0 => at + d * (1 + (next() % 300) as i32),
                        1 => {
                            at + d * (1 + (next() % 40) as i32)
                                + face * d * (1 + (next() % 300) as i32)
                        }
                        2 => at + IVec3::ONE,
                        _ => random(&mut next),
                    };
                    let (found, expected) = if rank(d) == 1 {
                        let expected =
                            face_jump_by_cells(&tables, &mut fits, &view, at, dir, goal, 0);
                        (plus.face_jump(at, dir, goal), expected)
                    } else {
                        let limit = if next().is_multiple_of(4) {
                            (next() % 6) as u32
                        } else {
                            u32::MAX
                        };
                        let expected =
                            edge_jump_by_cells(&tables, &mut fits, &view, at, dir, goal, limit);
                        (plus.edge_jump(at, dir, goal, limit), expected)
                    };
                    assert_eq!(found, expected, "{agent:?} {at} {d} goal {goal}");
                    jumps += usize::from(found.is_some());
                    // Lines read past a `MORE` entry.
                    let far = plus.reach(plus.index(at).unwrap(), dir).unwrap().0 > 127;
                    long += usize::from(far && rank(d) == 1);
                    long_edges += usize::from(far && rank(d) == 2);
                    met_by_face += usize::from(found.is_some_and(|to| {
                        let rest = goal - to;
                        rank(d) == 2 && to != goal && rank(rest) == 1 && rest.dot(d) > 0
                    }));
                }
            }
        }
        assert!(
            jumps > 3000 && long > 20 && long_edges > 5 && met_by_face > 50,
            "{jumps} jumps, {long} faces and {long_edges} edges running past 127 steps, \
             {met_by_face} goals met by a face sub-jump"
        );
    }
}
