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
//! Two move sources share one search loop ([`JumpSearch`]): the online one scans bit rows
//! ([`BitGrid`]), the preprocessed one ([`JumpTable`](crate::flat::jps_plus::JumpTable))
//! reads the scan's answer from a table.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::IVec2;

use crate::flat::Action;
use crate::flat::bits::{BitGrid, Straight};
use crate::search::{SearchStats, SearchStatus};

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

/// Whether the run of `steps` steps `(dx, dy)` from the free cell `(x, y)` is legal, every
/// cell it touches inside the grid: a straight run reads its line 64 cells per word, a
/// diagonal run asks [`JumpSource::diagonal_run_is_free`].
#[inline]
fn run_is_free<S: JumpSource>(
    source: &S,
    (x, y): (i32, i32),
    (dx, dy): (i32, i32),
    steps: i32,
) -> bool {
    if steps == 0 {
        return true;
    }
    if dx == 0 || dy == 0 {
        let (line, at, way) = if dy == 0 { (y, x, dx) } else { (x, y, dy) };
        let (from, to) = if way > 0 {
            (at + 1, at + steps)
        } else {
            (at - steps, at - 1)
        };
        source.bits().line_is_free(dy == 0, line, from, to)
    } else {
        source.diagonal_run_is_free((x, y), (dx, dy), steps)
    }
}

/// Appends the `run` cells after `from` by `step` (one of the 8 directions) to `cells`, and
/// as many copies of its action to `actions`.
#[inline]
fn lay_line(
    cells: &mut Vec<IVec2>,
    actions: &mut Vec<Action>,
    from: IVec2,
    step: IVec2,
    run: usize,
) {
    let Some(action) = Action::between(IVec2::ZERO, step) else {
        return;
    };
    // A cell as one 64-bit number, `y * 2^32 + x`: the cells of a run, all inside the grid
    // (coordinates from 0 to below 2^31), are that number plus a multiple of the step's
    // `dy * 2^32 + dx` in wrapping arithmetic, so a cell costs one add and one 64-bit store,
    // and the compiler writes four cells per loop round (extending by `from + step * i` cost
    // about eight instructions a cell; filling a slice grown first also paid its clearing).
    // Extended from an exclusive range, whose length is exact: no capacity check per cell
    // (an inclusive range's iterator cost twice as much as the cells).
    let pack = |c: IVec2| (u64::from(c.y as u32) << 32) | u64::from(c.x as u32);
    let by = ((i64::from(step.y) << 32) + i64::from(step.x)) as u64;
    let mut cell = pack(from);
    cells.extend((0..run).map(|_| {
        cell = cell.wrapping_add(by);
        IVec2::new(cell as u32 as i32, (cell >> 32) as u32 as i32)
    }));
    actions.resize(actions.len() + run, action);
}

/// Lays a free *direct* route from `start` to `goal` into the emptied `cells` and `actions`,
/// when there is one: the diagonal run then the straight one, or the straight run then the
/// diagonal one. A direct route costs the octile distance, which no route can beat (a
/// diagonal step saves at most one straight step, and costs no more than two), so it is
/// optimal and needs no search. Most short queries have one: 135 of the 160 `arena`
/// problems. `false`, writing nothing, when neither is free. Both runs are checked before
/// a cell is written.
#[inline]
fn lay_direct_route<S: JumpSource>(
    source: &S,
    start: (i32, i32),
    goal: (i32, i32),
    (cells, actions): RouteBuffers<'_>,
) -> bool {
    let (across, along) = (goal.0 - start.0, goal.1 - start.1);
    let diagonal = (across.signum(), along.signum());
    let diagonal_steps = across.abs().min(along.abs());
    let straight = if across.abs() >= along.abs() {
        (diagonal.0, 0)
    } else {
        (0, diagonal.1)
    };
    let straight_steps = across.abs().max(along.abs()) - diagonal_steps;
    let orders = [
        (diagonal, diagonal_steps, straight, straight_steps),
        (straight, straight_steps, diagonal, diagonal_steps),
    ];
    // With one run only, the other order is the same route.
    let tried = if diagonal_steps == 0 || straight_steps == 0 {
        1
    } else {
        2
    };
    for &(first, first_steps, second, second_steps) in &orders[..tried] {
        let turn = (
            start.0 + first.0 * first_steps,
            start.1 + first.1 * first_steps,
        );
        if run_is_free(source, start, first, first_steps)
            && run_is_free(source, turn, second, second_steps)
        {
            let steps = (first_steps + second_steps) as usize;
            cells.reserve(steps + 1);
            actions.reserve(steps);
            let origin = IVec2::new(start.0, start.1);
            cells.push(origin);
            let first_step = IVec2::new(first.0, first.1);
            lay_line(cells, actions, origin, first_step, first_steps as usize);
            let turn = IVec2::new(turn.0, turn.1);
            lay_line(
                cells,
                actions,
                turn,
                IVec2::new(second.0, second.1),
                second_steps as usize,
            );
            return true;
        }
    }
    false
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
    let mut count = 0;
    let bits = source.bits();
    let mut try_direction = |dx: i32, dy: i32| {
        if let Some(steps) = source.jump(x, y, dx, dy, goal) {
            out[count % 8] = Jump {
                dir: direction_index(dx, dy),
                steps,
            };
            count += 1;
        }
    };
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
        while let Some(Reverse(key)) = self.open.pop() {
            let node = key as u32;
            let record = &mut self.records[node as usize];
            if record.stamp == closed_stamp {
                continue;
            }
            record.stamp = closed_stamp;
            let (g, parent) = (record.g, record.parent);
            if node == goal_index {
                found = Some(g);
                break;
            }
            stats.expanded += 1;
            let at = ((node % width as u32) as i32, (node / width as u32) as i32);
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
        let Some(cost) = found else {
            return unreachable(stats);
        };
        self.route(width, start_index, goal_index, (cells, actions));
        JumpResult {
            status: SearchStatus::Found,
            cost: Some(cost),
            stats,
        }
    }

    /// The route to `goal` cell by cell and its actions: the jump points walked back through
    /// their parents, laid out by [`JumpSearch::lay_out`].
    fn route(&mut self, width: i32, start: u32, goal: u32, (cells, actions): RouteBuffers<'_>) {
        // Each turn's cell worked out once (a division), not once per use.
        let cell =
            |node: u32| IVec2::new((node % width as u32) as i32, (node / width as u32) as i32);
        self.points.clear();
        self.points.push(cell(goal));
        let mut node = goal;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A run laid from its packed cell number holds the cells `from + step * i` and one
    /// action per cell, in every direction, down to coordinate 0 and up to the largest grid.
    #[test]
    fn laid_lines_hold_every_cell_of_the_run() {
        for (dx, dy) in DIRECTIONS {
            let step = IVec2::new(dx, dy);
            let action = Action::between(IVec2::ZERO, step).expect("a neighbour");
            for from in [
                IVec2::new(9, 9),
                IVec2::new(65_533 - 9, 9),
                IVec2::new(9, 65_533 - 9),
            ] {
                for run in 0..10 {
                    let (mut cells, mut actions) = (vec![IVec2::new(-1, -1)], vec![Action::Up]);
                    lay_line(&mut cells, &mut actions, from, step, run);
                    let expected: Vec<IVec2> = std::iter::once(IVec2::new(-1, -1))
                        .chain((1..=run as i32).map(|i| from + step * i))
                        .collect();
                    assert_eq!(cells, expected, "from {from} by {step} x {run}");
                    assert_eq!(actions.len(), run + 1);
                    assert!(actions[1..].iter().all(|&a| a == action));
                }
            }
        }
    }
}
