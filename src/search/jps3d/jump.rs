//! The jump move source: the search loop's view of the jump records, the jumps from a
//! position, and the jump itself.
//!
//! ## What the expansion loop gained from its compiled form (session 23)
//!
//! Callgrind on the large set's 40 queries with tables (`JPS3D_SET=fly-large-256
//! JPS3D_ENGINE=tables valgrind --tool=callgrind --branch-sim=yes --toggle-collect='*run_jps*'`
//! on the bench binary), each step on top of the one before:
//!
//! | change | instructions | mispredicted (simulated) |
//! |---|---|---|
//! | before | 252.1 M | 2.63 M conditional, 0.29 M indirect |
//! | the dense store's `offer` inlined: out of line, its `Offer` went back through a jump table | 230.3 M | 2.12 M, 0 |
//! | `JumpTables::edge_jump_at` inlined | 201.7 M | 2.12 M, 0 |
//! | the tables' jumps return their steps; an edge's axes looked up, not matched | 197.1 M | 2.18 M, 0 |
//! | faces jumped first, then edges and corners (the face-or-edge test runs in two runs) | 197.8 M | 2.15 M, 0 |
//! | a tabled jump skips the test of its first step against the goal (the tables meet it) | 192.0 M | |
//!
//! `Simple` 14.54 M to 13.02 M, the pillars 39.83 M to 31.61 M; without tables (this loop
//! too), `Simple` 59.23 M to 55.99 M, the pillars 109.5 M to 106.4 M. Faces first changes
//! which of equal-`f` landings pops first: expansions per query with tables 5 054 to 5 052 on
//! the large set, without 182 to 163 on `Simple` and 1 287 to 1 225 on the pillars; the same
//! costs on every query. On the clock (quiet, six interleaved rounds of both bench binaries,
//! `JPS3D_PASSES=15`, the median pass each): the large set with tables 1 125-1 197 us to
//! 1 008-1 068 us per query (0.91x, 0.84x-0.93x by round), the flier A* 3 645-3 707 us in
//! both, so 3.05x-3.30x to 3.44x-4.03x (medians 3.20x to 3.57x): short of issue 25's 5x.
//! Faces first alone, ten interleaved rounds: 0.975x (0.894x-1.005x).
//!
//! Then, with the dense store and no budget, the loop's variant without budget checks nor
//! the best position for a partial route (session 26): 192.0 M to 183.1 M instructions on the
//! large set, `Simple` 13.02 M to 12.73 M, the pillars 31.61 M to 30.44 M, the same
//! expansions. On the clock (`JPS3D_PASSES=15`, quiet, the two bench binaries interleaved,
//! the new one first: 8 of 8 pairs faster, 0.92x-0.98x; the old one first in 7 pairs with 9
//! passes: 0.92x-1.05x), about 0.96x; against the flier A* in the same minutes, 3.85x-3.90x.

use std::time::Instant;

use glam::IVec3;

use super::START;
use super::canon::{Tables, rank as dir_rank, sign};
use super::face::face_jump;
use super::fits::Fits;
use super::plus::JumpTables;
use crate::moves::fly::FREE_DIRECTIONS;
use crate::search::cells::{CLOSED, CellTable, Neighbourhood, PAGE_CELLS, Record};
use crate::search::core::{MoveSource, Offer, RecordTable, Successor, run};
use crate::search::heuristic::Estimator;
use crate::search::open::OpenSet;
use crate::search::{BlockGoal, Budget, SearchResult};
use crate::world::VoxelWorld;

/// The side of a page of the cell table, in cells.
const PAGE_SIDE: u32 = 16;
const _: () = assert!(PAGE_CELLS == (PAGE_SIDE * PAGE_SIDE * PAGE_SIDE) as usize);

/// What the search keeps per explicit position: a record of the cell table, 16 bytes.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct JumpRecord {
    /// The cost of the best route found (routes dearer than `u32::MAX` are left to the flier
    /// A*: see [`JumpSearch::find_path`](super::JumpSearch::find_path)).
    pub(super) g: u32,
    /// The search's stamp (see [`CellTable::tag`]), and [`CLOSED`] while the position is
    /// expanded for all its arrivals.
    pub(super) tag: u32,
    /// The node of the position it was reached from (its own for the start).
    pub(super) parent: u32,
    /// The arrival codes reached at cost `g` (bits of the indices of
    /// [`FREE_DIRECTIONS`], [`START`] for the start).
    pub(super) arrivals: u32,
}

impl Record for JumpRecord {
    const MAX_G: u64 = u32::MAX as u64;

    #[inline]
    fn new(g: u64, tag: u32) -> Self {
        debug_assert!(g <= Self::MAX_G);
        Self {
            g: g as u32,
            tag,
            ..Self::default()
        }
    }

    #[inline]
    fn g(self) -> u64 {
        u64::from(self.g)
    }

    #[inline]
    fn tag(self) -> u32 {
        self.tag
    }

    #[inline]
    fn close(&mut self) {
        self.tag |= CLOSED;
    }
}

/// The records of a jump search as the search loop sees them: a [`CellTable`] whose records
/// keep their explicit parent and the arrival directions reached at their cost.
pub(super) struct JumpRecords<'a> {
    pub(super) cells: &'a mut CellTable<JumpRecord>,
    /// The tag of this search's records.
    pub(super) tag: u32,
}

impl RecordTable for JumpRecords<'_> {
    type Record = JumpRecord;
    /// A successor's cell.
    type At = u32;
    /// The direction of the jump (an index of [`FREE_DIRECTIONS`]).
    type Via = u32;

    #[inline]
    fn open_record(&mut self, node: u32) -> Option<JumpRecord> {
        let record = *self.cells.cell(node);
        (record.tag & CLOSED == 0).then_some(record)
    }

    #[inline]
    fn g(record: JumpRecord) -> u64 {
        u64::from(record.g)
    }

    #[inline]
    fn close(&mut self, node: u32) {
        self.cells.cell(node).tag |= CLOSED;
    }

    #[inline]
    fn nearly_full(&self) -> bool {
        self.cells.nearly_full()
    }

    /// Taken when new or cheaper (its arrivals then only this one), and when as cheap by a
    /// direction it was not reached by yet (which needs its own natural moves: the module
    /// notes) after it was expanded, so that it is expanded again; an open position just
    /// adds the direction.
    #[inline]
    fn offer(&mut self, to: u32, g: u64, parent: u32, dir: u32) -> Offer {
        let Ok(g) = u32::try_from(g) else {
            return Offer::Overflow;
        };
        let (tag, bit) = (self.tag, 1 << dir);
        let record = self.cells.cell(to);
        if record.tag & !CLOSED != tag || g < record.g {
            *record = JumpRecord {
                g,
                tag,
                parent,
                arrivals: bit,
            };
            return Offer::Taken(to);
        }
        if g == record.g && record.arrivals & bit == 0 {
            record.arrivals |= bit;
            if record.tag & CLOSED != 0 {
                record.tag = tag;
                return Offer::Taken(to);
            }
        }
        Offer::Kept
    }
}

/// Where a jump search keeps its records: the cell table of the flier A* ([`JumpRecords`]),
/// or with tables the dense store ([`DenseRecords`](super::dense::DenseRecords)).
pub(super) trait JumpStore: RecordTable<Record = JumpRecord, Via = u32> {
    /// Whether the store never fills (never stops a search, never answers [`Offer::Full`]):
    /// a search with no budget then cannot end partial.
    const NEVER_FULL: bool = false;
    /// What the store works out once per expansion to find the successors' nodes.
    type Near: Copy;
    /// [`JumpStore::Near`] for the node `node` at `at` (the cell `cell` of the tables, when
    /// the search has them).
    fn near(&self, node: u32, at: IVec3, cell: Option<usize>) -> Self::Near;
    /// Where the landing `to` lies, `steps` steps from the node `node` at `at` in the direction
    /// `dir`: `None` when the store cannot hold it (outside the key range or the bounds).
    fn target(
        &mut self,
        near: Self::Near,
        node: u32,
        at: IVec3,
        to: IVec3,
        dir: usize,
        steps: u32,
    ) -> Option<Self::At>;
    /// The position of `node`.
    fn position(&self, node: u32) -> IVec3;
    /// The record of `node` (its cost and parent, for the route back).
    fn record(&mut self, node: u32) -> JumpRecord;

    /// The route back from `end` through the explicit positions, each joined to its parent
    /// cell by cell (consecutive ones lie on one jump's line), and its cost.
    fn route(&mut self, end: u32) -> (Vec<IVec3>, u64) {
        let mut path = vec![self.position(end)];
        let mut node = end;
        loop {
            let parent = self.record(node).parent;
            if parent == node {
                break;
            }
            let (from, to) = (self.position(node), self.position(parent));
            let step = sign(to - from);
            let mut p = from;
            while p != to {
                p += step;
                path.push(p);
            }
            node = parent;
        }
        (path, u64::from(self.record(end).g))
    }
}

impl JumpStore for JumpRecords<'_> {
    /// Moves to a neighbour find its node at a fixed offset when it stays in the page.
    type Near = Neighbourhood;

    #[inline]
    fn near(&self, node: u32, at: IVec3, _: Option<usize>) -> Neighbourhood {
        Neighbourhood::new(node, at)
    }

    #[expect(
        clippy::inline_always,
        reason = "not inlined at `#[inline]`, its call cost 5% more instructions on the pillars without tables"
    )]
    #[inline(always)]
    fn target(
        &mut self,
        near: Neighbourhood,
        node: u32,
        at: IVec3,
        to: IVec3,
        dir: usize,
        steps: u32,
    ) -> Option<u32> {
        if steps == 1 && near.inside & (1 << dir) != 0 {
            Some(near.neighbour(dir))
        } else if steps < PAGE_SIDE {
            // A jump shorter than a page side lands in one of the 27 pages around the
            // position's, which its page's links find without the directory.
            self.cells.neighbour_node(node, at, to)
        } else {
            self.cells.node(to)
        }
    }

    #[inline]
    fn position(&self, node: u32) -> IVec3 {
        self.cells.position(node)
    }

    #[inline]
    fn record(&mut self, node: u32) -> JumpRecord {
        *self.cells.cell(node)
    }
}

/// The one search loop of the crate ([`run`]) over jump points from `node`, with the records
/// in `table` (either store), finished into a result with its route. `None` as [`run`].
#[expect(
    clippy::too_many_arguments,
    reason = "the loop's own arguments, plus the clock the result is timed by"
)]
pub(super) fn run_jumps<S: JumpStore, W: VoxelWorld + ?Sized>(
    table: &mut S,
    source: &mut JumpMoves<'_, W>,
    open: &mut OpenSet,
    node: u32,
    goal: &BlockGoal,
    estimator: &Estimator,
    budget: &Budget,
    started: Instant,
) -> Option<SearchResult> {
    // With no budget and a store that never fills, nothing ends the search early: it needs
    // no budget checks, nor the best position for a partial route.
    let ended = if S::NEVER_FULL && budget.is_unlimited() {
        run::<_, _, _, false>(table, source, open, node, goal, estimator, budget)?
    } else {
        run::<_, _, _, true>(table, source, open, node, goal, estimator, budget)?
    };
    Some(ended.finish(started, |end| table.route(end)))
}

/// The face directions (bits of [`FREE_DIRECTIONS`]).
const FACES: u32 = {
    let (mut faces, mut dir) = (0, 0);
    while dir < 26 {
        if dir_rank(FREE_DIRECTIONS[dir]) == 1 {
            faces |= 1 << dir;
        }
        dir += 1;
    }
    faces
};

/// The jumps from a position as the search loop's move source.
pub(super) struct JumpMoves<'a, W: ?Sized> {
    pub(super) tables: &'a Tables,
    pub(super) fits: &'a mut Fits,
    /// The precomputed face jumps, when the search has them.
    pub(super) plus: Option<&'a JumpTables>,
    pub(super) world: &'a W,
    pub(super) goal: IVec3,
}

impl<S: JumpStore, W: VoxelWorld + ?Sized> MoveSource<S> for JumpMoves<'_, W> {
    type Landing = IVec3;

    #[inline]
    fn feet(&self, table: &S, node: u32) -> IVec3 {
        table.position(node)
    }

    /// Jumps in each natural and forced direction of the record's arrivals.
    fn expand(
        &mut self,
        table: &mut S,
        node: u32,
        record: JumpRecord,
        at: IVec3,
        mut relax: impl FnMut(&mut S, Successor<S::At, u32, IVec3>) -> bool,
    ) {
        let tables = self.tables;
        // With tables, the cell of `at` in them (an expanded position lies in the bounds).
        let plus_at = self
            .plus
            .and_then(|plus| plus.index(at).map(|index| (plus, index)));
        let around = match plus_at {
            Some((plus, index)) => plus.around_at(index),
            None => self.fits.around(self.world, at),
        };
        let (mut arrivals, mut dirs) = (record.arrivals, 0u32);
        while arrivals != 0 {
            let a = arrivals.trailing_zeros() as usize;
            arrivals &= arrivals - 1;
            dirs |= tables.natural[a];
            if a != START {
                dirs |= tables.forced_moves(a, around);
            }
        }
        // A jump in an illegal direction returns at once: legality is not tested apart.
        let near = table.near(node, at, plus_at.map(|(_, index)| index));
        let ahead = tables.ahead(self.fits, self.plus.is_some());
        // Faces first, then the rest: whether a jump reads a face's table or an edge's is then
        // one answer, then the other, which the branch predictor follows.
        let mut order = u64::from(dirs & FACES) | u64::from(dirs & !FACES) << 32;
        while order != 0 {
            let dir = (order.trailing_zeros() & 31) as usize;
            order &= order - 1;
            let required = tables.required[dir];
            if around & required != required {
                continue;
            }
            let bit = 1 << dir;
            let (to, steps) = match plus_at {
                // Face and edge jumps read the tables at once, which meet the goal and count
                // the steps.
                Some((plus, index)) if tables.tabled & ahead & bit != 0 => {
                    let Some(jumped) =
                        plus.jump_at(index, at, dir, self.goal, tables.plus_limits[0])
                    else {
                        continue;
                    };
                    jumped
                }
                _ => {
                    // With no steps to read ahead (or at the goal) the jump ends on its first
                    // step, and no call is made.
                    let next = at + FREE_DIRECTIONS[dir];
                    if next == self.goal || ahead & bit == 0 {
                        (next, 1)
                    } else {
                        let jumped = jump(
                            tables, self.plus, self.fits, self.world, at, around, dir, self.goal,
                        );
                        let Some(to) = jumped else {
                            continue;
                        };
                        (to, (to - at).abs().max_element() as u32)
                    }
                }
            };
            let Some(to_node) = table.target(near, node, at, to, dir, steps) else {
                continue;
            };
            let successor = Successor {
                at: to_node,
                landing: to,
                cost: steps * tables.step[dir],
                via: dir as u32,
            };
            if !relax(table, successor) {
                return;
            }
        }
    }
}

/// Jumps from `from` (whose neighbourhood is `around`) in the direction `dir`: the first
/// position that is the goal, has a forced move, or from which a natural sub-direction's jump
/// returns something; `None` when the next move is illegal first. After [`Tables::limit`] positions read, the next
/// position is returned. A face jump reads the precomputed tables when there are some
/// ([`JumpTables::face_jump`]), or may scan by word ([`face_jump`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn jump<W: VoxelWorld + ?Sized>(
    tables: &Tables,
    plus: Option<&JumpTables>,
    fits: &mut Fits,
    world: &W,
    from: IVec3,
    around: u32,
    dir: usize,
    goal: IVec3,
) -> Option<IVec3> {
    let d = FREE_DIRECTIONS[dir];
    if let Some(plus) = plus {
        match dir_rank(d) {
            1 => return plus.face_jump(from, dir, goal),
            2 => {
                let limit = tables.plus_limits[0];
                return plus.edge_jump(from, dir, goal, limit);
            }
            _ => {}
        }
    } else if tables.scans(dir, fits) {
        return face_jump(tables, fits, world, from, dir, goal, tables.face_cap);
    }
    let required = tables.required[dir];
    let mut steps = match plus {
        Some(_) => tables.plus_limits[dir_rank(d) as usize - 2],
        None => tables.limit(dir, fits),
    };
    let (mut at, mut around) = (from, around);
    loop {
        if around & required != required {
            return None;
        }
        let next = at + d;
        if next == goal || steps == 0 {
            return Some(next);
        }
        steps -= 1;
        let next_around = match plus {
            Some(plus) => plus.around(next),
            None => fits.around(world, next),
        };
        if tables.forced_moves(dir, next_around) != 0 {
            return Some(next);
        }
        let mut sub = tables.sub[dir];
        while sub != 0 {
            let s = sub.trailing_zeros() as usize;
            sub &= sub - 1;
            if jump(tables, plus, fits, world, next, next_around, s, goal).is_some() {
                return Some(next);
            }
        }
        at = next;
        around = next_around;
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use crate::moves::agent::{Agent, MoveCosts};
    use crate::moves::pathcheck::check_path;
    use crate::search::jps3d::JumpSearch;
    use crate::search::{Pathfinder, SearchOptions};
    use crate::world::{Block, Bounds, ChunkedWorld};

    /// A route dearer than a record's 32-bit cost gets the flier A*'s answer (its cost, a
    /// legal route), with and without scanned jumps; a cheap route in the same world is the
    /// jump search's own and agrees too.
    #[test]
    fn routes_dearer_than_a_record_get_the_flier_astar_answer() {
        // Octile costs times 6 000: five moves cost more than `u32::MAX`.
        let costs = MoveCosts {
            straight: 600_000_000,
            diagonal: 848_528_137,
            corner: 1_039_230_485,
            ..MoveCosts::octile()
        };
        let min = IVec3::new(-7, 30, -5);
        let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + 12)).unwrap();
        // A wall across x with one hole: no direct route through it.
        for y in 0..12 {
            for z in 0..12 {
                if (y, z) != (9, 10) {
                    world.set(min + IVec3::new(5, y, z), Block::Solid).unwrap();
                }
            }
        }
        let agent = Agent::flier(1);
        let mut astar = Pathfinder::new(agent, costs).unwrap();
        let options = SearchOptions::default();
        let queries = [
            (IVec3::new(1, 1, 1), IVec3::new(10, 2, 2), true),
            (IVec3::new(4, 9, 9), IVec3::new(6, 8, 10), false),
        ];
        for scans in [false, true] {
            let mut jps = JumpSearch::new(agent, costs)
                .unwrap()
                .with_straight_scans(scans);
            for (start, goal, dear) in queries {
                let (start, goal) = (min + start, min + goal);
                let expected = astar.find_path(&world, start, goal, &options).unwrap();
                let found = jps.find_path(&world, start, goal, &options).unwrap();
                assert!(found.is_found());
                assert_eq!(found.cost, expected.cost, "{start} -> {goal}");
                assert_eq!(found.cost.unwrap() > u64::from(u32::MAX), dear);
                let check = check_path(&world, &agent, &costs, &found.path);
                assert_eq!(check.first_broken, None, "{:?}", found.path);
                assert_eq!(check.cost, found.cost);
            }
        }
    }
}
