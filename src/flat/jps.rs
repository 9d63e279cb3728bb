//! Jump point search on 8-connected grids without corner cutting (Harabor and Grastien), for
//! [`GridPlanner`](crate::flat::GridPlanner): A* whose nodes are jump points, with the
//! successors of a jump point found by scanning straight and diagonal lines.
//!
//! On a grid where every straight step costs the same and every diagonal step costs the
//! same, many optimal routes differ only in the order of their moves. Jump point search
//! keeps one of them, the one that goes diagonally as early as possible: from a cell reached
//! straight it goes on straight, from a cell reached diagonally it goes on diagonally or
//! straight along either component, and it only turns elsewhere at a *forced neighbour*, a
//! cell the kept order could not reach otherwise because a wall stands behind it. A scan along
//! a line then visits no node until it meets such a turn (a *jump point*), the goal, or a
//! wall; A* only sees the jump points. The routes are exact: the same cost as A* over every
//! cell.
//!
//! Without corner cutting (a diagonal step needs both cells beside it free), a cell reached
//! by a straight step in direction `d` has a forced neighbour on side `s` when the cell
//! beside it, `cell + s`, is free and the cell beside the one it came from, `cell - d + s`,
//! is blocked: then `cell + s` and `cell + d + s` are successors too. A diagonal step has no
//! forced neighbours (both cells beside it are free, or it would not be legal); a cell on a
//! diagonal run is a jump point when a straight scan from it along either component finds
//! one.
//!
//! A query whose *direct* route (one diagonal run and one straight run, in either order) is
//! free needs no search: it costs the octile distance, which no route beats. For the same
//! reason a search ends at the first jump point it pops with a free direct route to the goal
//! (its `g` plus the octile estimate is the least `f` in the open set), after at most
//! [`DIRECT_TRIES`] failed checks per search.
//!
//! Two move sources share one search loop ([`JumpSearch`]): the online one scans bit rows
//! ([`BitGrid`]), the preprocessed one ([`JumpTable`](crate::flat::jps_plus::JumpTable))
//! reads the scan's answer from a table.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::IVec2;

use crate::flat::Action;
use crate::flat::bits::{BitGrid, Straight};
use crate::search::{SearchStats, SearchStatus};

mod direct;
use direct::{free_direct_route, lay_direct_route, lay_line, may_end_directly};

/// The 8 directions of travel: the 4 straight ones, then the 4 diagonals.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The index in [`DIRECTIONS`] of `(dx, dy)`, a direction of travel.
#[inline]
pub(crate) const fn direction_index(dx: i32, dy: i32) -> usize {
    // Indexed by (dy + 1) * 3 + (dx + 1); the middle (no direction) is never asked for.
    const INDEX: [usize; 9] = [7, 3, 5, 1, 0, 0, 6, 2, 4];
    INDEX[((dy + 1) * 3 + dx + 1) as usize]
}

/// The straight scan of `(dx, dy)`, one of the 4 straight directions.
#[inline]
pub(crate) const fn straight(dx: i32, dy: i32) -> Straight {
    Straight {
        horizontal: dy == 0,
        forward: dx + dy > 0,
    }
}

/// Whether a diagonal step `(dx, dy)` from the free cell `(x, y)` is legal: the target and
/// both cells beside the step free (no corner cutting).
#[inline]
pub(crate) fn diagonal_step_free(bits: &BitGrid, x: i32, y: i32, dx: i32, dy: i32) -> bool {
    bits.is_free(x + dx, y) && bits.is_free(x, y + dy) && bits.is_free(x + dx, y + dy)
}

/// Whether the free cell `(x, y)`, entered by a straight step `(dx, dy)`, has a forced
/// neighbour on side `(sx, sy)` (perpendicular to the step): the side cell is free and the
/// side cell of the cell stepped from is blocked.
#[inline]
pub(crate) fn forced(
    bits: &BitGrid,
    x: i32,
    y: i32,
    (dx, dy): (i32, i32),
    (sx, sy): (i32, i32),
) -> bool {
    bits.is_free(x + sx, y + sy) && !bits.is_free(x - dx + sx, y - dy + sy)
}

/// Where the successors of a jump point come from: a jump from a free cell in one
/// direction.
pub(crate) trait JumpSource {
    /// The grid's free cells.
    fn bits(&self) -> &BitGrid;

    /// The jump from the free cell `(x, y)` in direction `(dx, dy)`: the number of steps to
    /// the next jump point (or to `goal`, or to a cell of a diagonal run in line with `goal`),
    /// or `None` when the line ends at a wall first.
    fn jump(&self, x: i32, y: i32, dx: i32, dy: i32, goal: (i32, i32)) -> Option<u32>;

    /// Whether the `steps` diagonal steps `(dx, dy)` from the free cell `(x, y)` are all
    /// legal (no corner cutting), every cell they touch inside the grid. The default tests
    /// each step's cells.
    #[inline]
    fn diagonal_run_is_free(&self, (x, y): (i32, i32), (dx, dy): (i32, i32), steps: i32) -> bool {
        let bits = self.bits();
        let (mut cx, mut cy) = (x, y);
        for _ in 0..steps {
            if !diagonal_step_free(bits, cx, cy, dx, dy) {
                return false;
            }
            (cx, cy) = (cx + dx, cy + dy);
        }
        true
    }

    /// How many legal steps `(dx, dy)` (one of the 8 directions) lead from the free cell
    /// `(x, y)` before a blocked cell, a cut corner or the grid's edge. The default tests
    /// each step's cells.
    #[inline]
    fn reach(&self, (x, y): (i32, i32), (dx, dy): (i32, i32)) -> i32 {
        let bits = self.bits();
        let (mut cx, mut cy, mut steps) = (x, y, 0);
        loop {
            let free = if dx == 0 || dy == 0 {
                bits.is_free(cx + dx, cy + dy)
            } else {
                diagonal_step_free(bits, cx, cy, dx, dy)
            };
            if !free {
                return steps;
            }
            (cx, cy, steps) = (cx + dx, cy + dy, steps + 1);
        }
    }
}

impl JumpSource for BitGrid {
    fn bits(&self) -> &BitGrid {
        self
    }

    #[inline]
    fn jump(&self, x: i32, y: i32, dx: i32, dy: i32, goal: (i32, i32)) -> Option<u32> {
        if dx == 0 || dy == 0 {
            return BitGrid::jump(self, x, y, straight(dx, dy), goal);
        }
        let (along_x, along_y) = (straight(dx, 0), straight(0, dy));
        let (mut cx, mut cy, mut steps) = (x, y, 0);
        loop {
            if !diagonal_step_free(self, cx, cy, dx, dy) {
                return None;
            }
            (cx, cy, steps) = (cx + dx, cy + dy, steps + 1);
            if (cx, cy) == goal
                || BitGrid::jump(self, cx, cy, along_x, goal).is_some()
                || BitGrid::jump(self, cx, cy, along_y, goal).is_some()
            {
                return Some(steps);
            }
        }
    }
}

/// How many popped jump points of one search may fail the direct route check before the
/// search stops trying. On `arena` a search's route is usually direct from one of its first
/// few jump points; on `den312d`, rooms and corridors, it rarely is, and a failed check
/// costs a comparison with the goal's reach or a run or two. JPS+ instructions a run of the
/// 160 `arena` and the 320 `den312d` queries: no check 233.8 k and 4.87 M; 8 tries 188.6 k
/// and 5.14 M, 16 tries 188.6 k and 5.22 M, no limit 188.6 k and 5.72 M; without the goal's
/// reaches, 4 tries 197.9 k and 5.11 M, 8 tries 189.5 k and 5.24 M (the `arena` target is
/// the tighter one: see `examples/movingai.rs`).
const DIRECT_TRIES: u32 = 8;

/// A successor of a jump point: `steps` steps in direction `dir` (an index into
/// [`DIRECTIONS`]).
#[derive(Debug, Clone, Copy)]
struct Jump {
    dir: usize,
    steps: u32,
}

/// The successors of the jump point `(x, y)` entered in direction `arrived` (`(0, 0)` for
/// the start), into the first places of `out`; returns how many. (A fixed array of the 8 a
/// point can have, on the stack, rather than a vector kept in the search: no capacity check
/// per successor and no vector taken out and put back per search, 4 % of the instructions of
/// the 160 `arena` queries with JPS+ and 8 % of the 320 `den312d` ones.)
#[inline]
fn successors<S: JumpSource>(
    source: &S,
    (x, y): (i32, i32),
    arrived: (i32, i32),
    goal: (i32, i32),
    out: &mut [Jump; 8],
) -> usize {
    #[expect(
        clippy::inline_always,
        reason = "as a closure it was called, not inlined: JPS+ `den312d` 5.75 M to 5.11 M \
                  instructions a run of its 320 queries"
    )]
    #[inline(always)]
    fn try_jump<S: JumpSource>(
        source: &S,
        (x, y): (i32, i32),
        (dx, dy): (i32, i32),
        goal: (i32, i32),
        (out, count): (&mut [Jump; 8], &mut usize),
    ) {
        if let Some(steps) = source.jump(x, y, dx, dy, goal) {
            out[*count % 8] = Jump {
                dir: direction_index(dx, dy),
                steps,
            };
            *count += 1;
        }
    }
    let mut count = 0;
    let bits = source.bits();
    let mut try_direction =
        |dx: i32, dy: i32| try_jump(source, (x, y), (dx, dy), goal, (out, &mut count));
    match arrived {
        (0, 0) => {
            for (dx, dy) in DIRECTIONS {
                try_direction(dx, dy);
            }
        }
        (dx, 0) => {
            try_direction(dx, 0);
            for side in [-1, 1] {
                if forced(bits, x, y, (dx, 0), (0, side)) {
                    try_direction(0, side);
                    try_direction(dx, side);
                }
            }
        }
        (0, dy) => {
            try_direction(0, dy);
            for side in [-1, 1] {
                if forced(bits, x, y, (0, dy), (side, 0)) {
                    try_direction(side, 0);
                    try_direction(side, dy);
                }
            }
        }
        (dx, dy) => {
            try_direction(dx, 0);
            try_direction(0, dy);
            try_direction(dx, dy);
        }
    }
    count
}

/// Labels of the connected parts of the grid's free cells (each part one label, blocked
/// cells `u32::MAX`): two cells are connected by 8-connected moves without corner cutting
/// exactly when they are by 4-connected ones, since every diagonal step has a free cell
/// beside it.
pub(crate) fn components(bits: &BitGrid) -> Vec<u32> {
    let (width, height) = (bits.width(), bits.height());
    let mut labels = vec![u32::MAX; width as usize * height as usize];
    let mut stack = Vec::new();
    let mut next = 0;
    for y in 0..height {
        for x in 0..width {
            let index = (y * width + x) as usize;
            if labels[index] != u32::MAX || !bits.is_free(x, y) {
                continue;
            }
            labels[index] = next;
            stack.push((x, y));
            while let Some((cx, cy)) = stack.pop() {
                for (dx, dy) in &DIRECTIONS[..4] {
                    let (nx, ny) = (cx + dx, cy + dy);
                    let at = (ny * width + nx) as usize;
                    if bits.is_free(nx, ny) && labels[at] == u32::MAX {
                        labels[at] = next;
                        stack.push((nx, ny));
                    }
                }
            }
            next += 1;
        }
    }
    labels
}

/// The open set's key of `node` at `f` and cost `g`: `f` in the high 64 bits; then, among
/// equal `f`, the larger `g` (nearer the goal) first, from `g`'s low 32 bits inverted (only
/// the order among equal `f` depends on them, and any order there is exact); then the node.
#[inline]
fn entry(f: u64, g: u64, node: u32) -> u128 {
    (u128::from(f) << 64) | (u128::from(!(g as u32)) << 32) | u128::from(node)
}

/// A cell's search state: valid in the search whose generation is `stamp >> 1`; closed when
/// the low bit is set.
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    stamp: u32,
    parent: u32,
    g: u64,
}

/// What a jump point search found (the route itself goes into the caller's vectors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JumpResult {
    /// [`SearchStatus::Found`] or [`SearchStatus::Unreachable`].
    pub status: SearchStatus,
    /// The route's cost.
    pub cost: Option<u64>,
    /// Jump points expanded and pushed; `elapsed` is not measured (zero): a short query
    /// reads no clock.
    pub stats: SearchStats,
}

/// The vectors a route is written into, cell by cell and action by action, emptied first and
/// reused across queries.
pub(crate) type RouteBuffers<'a> = (&'a mut Vec<IVec2>, &'a mut Vec<Action>);

/// The search state of jump point search, reused across queries: one record per cell found
/// through a generation stamp (no clearing between queries) and a binary heap of `(f, node)`.
/// (The graph A*'s radix heap was tried first: its buckets, one per distinct key at octile
/// cost scales, grew a vector about 1.4 times per Moving AI query on `arena`, and a jump point
/// search holds few open nodes, tens rather than thousands, where a binary heap is cheap.)
#[derive(Debug, Clone, Default)]
pub(crate) struct JumpSearch {
    records: Vec<Record>,
    generation: u32,
    /// Keys made by [`entry`]: one integer comparison per step of the heap (a tuple's
    /// comparison cost a fifth more instructions per query).
    open: BinaryHeap<Reverse<u128>>,
    /// The cells of the jump points of the route found, goal first (reused).
    points: Vec<IVec2>,
}

impl JumpSearch {
    /// A search over a grid of `cells` cells, its records made now (with the planner) rather
    /// than by the first query that searches, and room for a search of a few hundred jump
    /// points.
    pub(crate) fn for_cells(cells: usize) -> Self {
        Self {
            records: vec![Record::default(); cells],
            open: BinaryHeap::with_capacity(256),
            points: Vec::with_capacity(256),
            ..Self::default()
        }
    }

    /// The best route from `start` to `goal`, both free cells, over `source`, at `straight`
    /// per straight step and `diagonal` per diagonal step (`straight <= diagonal <= 2 *
    /// straight`); `labels` ([`components`]) proves a goal in another part unreachable with no
    /// search.
    // Out of line: inlined into both engines' arms of `GridPlanner::plan_into`, it pushed
    // the open set's push and the route's cell loop out of line instead (23 k instructions
    // more on the 160 `arena` queries with JPS+).
    #[inline(never)]
    pub(crate) fn find<S: JumpSource>(
        &mut self,
        source: &S,
        labels: &[u32],
        (start, goal): ((i32, i32), (i32, i32)),
        (straight, diagonal): (u64, u64),
        (cells, actions): RouteBuffers<'_>,
    ) -> JumpResult {
        cells.clear();
        actions.clear();
        let width = source.bits().width();
        let index = |(x, y): (i32, i32)| (y * width + x) as u32;
        let mut stats = SearchStats::default();
        let unreachable = |stats: SearchStats| JumpResult {
            status: SearchStatus::Unreachable,
            cost: None,
            stats,
        };
        if labels[index(start) as usize] != labels[index(goal) as usize] {
            return unreachable(stats);
        }
        let estimate = |(x, y): (i32, i32)| {
            let (across, along) = ((x - goal.0).unsigned_abs(), (y - goal.1).unsigned_abs());
            let (low, high) = (u64::from(across.min(along)), u64::from(across.max(along)));
            low * diagonal + (high - low) * straight
        };
        let start_index = index(start);
        let goal_index = index(goal);
        if lay_direct_route(source, start, goal, (cells, actions)) {
            return JumpResult {
                status: SearchStatus::Found,
                cost: Some(estimate(start)),
                stats,
            };
        }
        let grid_cells = source.bits().width() as usize * source.bits().height() as usize;
        if self.records.len() != grid_cells || self.generation >= u32::MAX / 2 - 1 {
            self.records.clear();
            self.records.resize(grid_cells, Record::default());
            self.generation = 0;
        }
        self.generation += 1;
        let open_stamp = self.generation << 1;
        let closed_stamp = open_stamp | 1;
        self.open.clear();
        self.records[start_index as usize] = Record {
            stamp: open_stamp,
            parent: start_index,
            g: 0,
        };
        self.open
            .push(Reverse(entry(estimate(start), 0, start_index)));
        stats.generated = 1;
        let mut jumps = [Jump { dir: 0, steps: 0 }; 8];
        let mut found = None;
        let mut direct_tries = DIRECT_TRIES;
        // How far the goal sees in each direction, worked out when first asked (-1 before).
        let mut goal_reach = [-1; 8];
        while let Some(Reverse(key)) = self.open.pop() {
            let node = key as u32;
            let record = &mut self.records[node as usize];
            if record.stamp == closed_stamp {
                continue;
            }
            record.stamp = closed_stamp;
            let (g, parent) = (record.g, record.parent);
            if node == goal_index {
                found = Some((g, node, goal));
                break;
            }
            let at = ((node % width as u32) as i32, (node / width as u32) as i32);
            // A free direct route from the jump point with the least `f` costs `g` plus the
            // octile estimate, that is `f`, which no route beats: the search ends here (the
            // start's was tried before the search).
            // The goal's reaches first: a direct route's last run ends at the goal, and one too
            // short for it rules the route out in a comparison (on `den312d` most do).
            if node != start_index && direct_tries > 0 {
                direct_tries -= 1;
                let reach = |way: (i32, i32)| {
                    let reach = &mut goal_reach[direction_index(way.0, way.1)];
                    if *reach < 0 {
                        *reach = source.reach(goal, way);
                    }
                    *reach
                };
                if may_end_directly(at, goal, reach)
                    && let Some(direct) = free_direct_route(source, at, goal)
                {
                    found = Some((g + estimate(at), node, direct.turn(at)));
                    break;
                }
            }
            stats.expanded += 1;
            let from = (
                (parent % width as u32) as i32,
                (parent / width as u32) as i32,
            );
            let arrived = ((at.0 - from.0).signum(), (at.1 - from.1).signum());
            let count = successors(source, at, arrived, goal, &mut jumps);
            for jump in &jumps[..count] {
                let (dx, dy) = DIRECTIONS[jump.dir];
                let to = (at.0 + dx * jump.steps as i32, at.1 + dy * jump.steps as i32);
                let step = if dx != 0 && dy != 0 {
                    diagonal
                } else {
                    straight
                };
                let cost = g + u64::from(jump.steps) * step;
                let target = index(to);
                let next = &mut self.records[target as usize];
                let seen = next.stamp >> 1 == self.generation;
                if seen && (next.stamp == closed_stamp || next.g <= cost) {
                    continue;
                }
                *next = Record {
                    stamp: open_stamp,
                    parent: node,
                    g: cost,
                };
                self.open
                    .push(Reverse(entry(cost + estimate(to), cost, target)));
                stats.generated += 1;
            }
        }
        let Some((cost, last, turn)) = found else {
            return unreachable(stats);
        };
        let ends = (IVec2::new(goal.0, goal.1), IVec2::new(turn.0, turn.1));
        self.route(width, start_index, last, ends, (cells, actions));
        JumpResult {
            status: SearchStatus::Found,
            cost: Some(cost),
            stats,
        }
    }

    /// The route to `goal` cell by cell and its actions: from the jump point `last` through
    /// `turn` (the turn of its direct route to the goal, or the goal itself) to `goal`, after
    /// the jump points walked back from `last` through their parents; laid out by
    /// [`JumpSearch::lay_out`].
    fn route(
        &mut self,
        width: i32,
        start: u32,
        last: u32,
        (goal, turn): (IVec2, IVec2),
        (cells, actions): RouteBuffers<'_>,
    ) {
        // Each turn's cell worked out once (a division), not once per use.
        let cell =
            |node: u32| IVec2::new((node % width as u32) as i32, (node / width as u32) as i32);
        self.points.clear();
        self.points.push(goal);
        let last_cell = cell(last);
        // No point twice: an empty run has no action.
        for point in [turn, last_cell] {
            if self.points.last() != Some(&point) {
                self.points.push(point);
            }
        }
        let mut node = last;
        while node != start {
            node = self.records[node as usize].parent;
            self.points.push(cell(node));
        }
        self.lay_out(cells, actions);
    }

    /// The route through the turns in `points` (goal first, start last), cell by cell, and
    /// its actions, into the emptied `cells` and `actions`: the straight or diagonal line
    /// between each two turns filled in, one action per line repeated.
    fn lay_out(&self, cells: &mut Vec<IVec2>, actions: &mut Vec<Action>) {
        let steps: usize = self
            .points
            .windows(2)
            .map(|pair| (pair[0] - pair[1]).abs().max_element() as usize)
            .sum();
        cells.reserve(steps + 1);
        actions.reserve(steps);
        if let Some(&start) = self.points.last() {
            cells.push(start);
        }
        for pair in self.points.windows(2).rev() {
            let (from, to) = (pair[1], pair[0]);
            let run = (to - from).abs().max_element() as usize;
            lay_line(cells, actions, from, (to - from).signum(), run);
        }
    }
}
