//! Routes laid out cell by cell, and *direct* routes: the ones a query or a search can
//! return without searching further.

use glam::IVec2;

use crate::flat::Action;
use crate::flat::jps::{JumpSource, RouteBuffers};

/// The action of each step `(dx, dy)`, at `(dy + 1) * 3 + dx + 1`; the middle, no step, is
/// never read.
const STEP_ACTIONS: [Action; 9] = [
    Action::UpLeft,
    Action::Up,
    Action::UpRight,
    Action::Left,
    Action::Up,
    Action::Right,
    Action::DownLeft,
    Action::Down,
    Action::DownRight,
];

/// Appends the `run` cells after `from` by `step` (one of the 8 directions) to `cells`, and
/// as many copies of its action to `actions`.
#[inline]
pub(super) fn lay_line(
    cells: &mut Vec<IVec2>,
    actions: &mut Vec<Action>,
    from: IVec2,
    step: IVec2,
    run: usize,
) {
    if run == 0 {
        return;
    }
    // Read from a table by the step: `Action::between`'s match cost 12 instructions a run.
    // `laid_lines_hold_every_cell_of_the_run` checks the table against it in all 8 directions.
    let action = STEP_ACTIONS[((step.y + 1) * 3 + step.x + 1) as usize];
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
    // Repeated by an iterator of exact length, written in line: `resize` called `memset` per
    // run (`arena` 202.4 k to 197.9 k).
    actions.extend(std::iter::repeat_n(action, run));
}

/// A *direct* route from one cell to another: one run, then a second in another direction
/// (either may be empty). It costs the octile distance, which no route can beat (a diagonal
/// step saves at most one straight step, and costs no more than two), so when it is free it
/// is optimal and needs no search.
#[derive(Debug, Clone, Copy)]
pub(super) struct Direct {
    pub(super) first: (i32, i32),
    pub(super) first_steps: i32,
    pub(super) second: (i32, i32),
    pub(super) second_steps: i32,
}

impl Direct {
    /// The cell between the two runs, from `start`.
    #[inline]
    pub(super) fn turn(&self, start: (i32, i32)) -> (i32, i32) {
        (
            start.0 + self.first.0 * self.first_steps,
            start.1 + self.first.1 * self.first_steps,
        )
    }
}

/// The free direct route from `start` to `goal`, if there is one: the diagonal run then the
/// straight one, or the straight run then the diagonal one. A straight run reads its line 64
/// cells per word, a diagonal run asks [`JumpSource::diagonal_run_is_free`]. (Each run's kind
/// known here rather than tested by a shared run check, and no array of the two orders: the
/// search tries this at its jump points too.)
#[inline]
pub(super) fn free_direct_route<S: JumpSource>(
    source: &S,
    start: (i32, i32),
    goal: (i32, i32),
) -> Option<Direct> {
    let (across, along) = (goal.0 - start.0, goal.1 - start.1);
    let diagonal = (across.signum(), along.signum());
    let (wide, tall) = (across.abs(), along.abs());
    let horizontal = wide >= tall;
    let diagonal_steps = wide.min(tall);
    let (straight, straight_steps) = if horizontal {
        ((diagonal.0, 0), wide - tall)
    } else {
        ((0, diagonal.1), tall - wide)
    };
    let straight_free = |(x, y): (i32, i32)| {
        let (line, at, way) = if horizontal {
            (y, x, straight.0)
        } else {
            (x, y, straight.1)
        };
        let (from, to) = if way > 0 {
            (at + 1, at + straight_steps)
        } else {
            (at - straight_steps, at - 1)
        };
        straight_steps == 0 || source.bits().line_is_free(horizontal, line, from, to)
    };
    let diagonal_free = |from: (i32, i32)| {
        diagonal_steps == 0 || source.diagonal_run_is_free(from, diagonal, diagonal_steps)
    };
    let diagonal_first = Direct {
        first: diagonal,
        first_steps: diagonal_steps,
        second: straight,
        second_steps: straight_steps,
    };
    if diagonal_free(start) && straight_free(diagonal_first.turn(start)) {
        return Some(diagonal_first);
    }
    // With one run only, the other order is the same route.
    if diagonal_steps == 0 || straight_steps == 0 {
        return None;
    }
    let straight_first = Direct {
        first: straight,
        first_steps: straight_steps,
        second: diagonal,
        second_steps: diagonal_steps,
    };
    (straight_free(start) && diagonal_free(straight_first.turn(start))).then_some(straight_first)
}

/// Whether a direct route from `at` to `goal` may be free as far as its last run goes, the
/// run that ends at the goal: `reach` gives how many legal steps lead from the goal in a
/// direction ([`JumpSource::reach`]), and the run back from the goal must be as long.
#[inline]
pub(super) fn may_end_directly(
    at: (i32, i32),
    goal: (i32, i32),
    mut reach: impl FnMut((i32, i32)) -> i32,
) -> bool {
    let (across, along) = (goal.0 - at.0, goal.1 - at.1);
    let (wide, tall) = (across.abs(), along.abs());
    let diagonal_steps = wide.min(tall);
    let straight_steps = wide.max(tall) - diagonal_steps;
    let back_diagonal = (-across.signum(), -along.signum());
    let back_straight = if wide >= tall {
        (-across.signum(), 0)
    } else {
        (0, -along.signum())
    };
    // Diagonal first ends straight (or diagonally, with no straight run); straight first, when
    // both runs exist, ends diagonally.
    if straight_steps == 0 {
        return reach(back_diagonal) >= diagonal_steps;
    }
    reach(back_straight) >= straight_steps
        || (diagonal_steps > 0 && reach(back_diagonal) >= diagonal_steps)
}

/// Lays a free direct route ([`Direct`]) from `start` to `goal` into the emptied `cells` and
/// `actions`, when there is one. Most short queries have one: 135 of the 160 `arena`
/// problems. `false`, writing nothing, when neither order is free. Both runs are checked
/// before a cell is written.
#[inline]
pub(super) fn lay_direct_route<S: JumpSource>(
    source: &S,
    start: (i32, i32),
    goal: (i32, i32),
    (cells, actions): RouteBuffers<'_>,
) -> bool {
    let Some(direct) = free_direct_route(source, start, goal) else {
        return false;
    };
    let steps = (direct.first_steps + direct.second_steps) as usize;
    cells.reserve(steps + 1);
    actions.reserve(steps);
    let origin = IVec2::new(start.0, start.1);
    cells.push(origin);
    let first_step = IVec2::new(direct.first.0, direct.first.1);
    lay_line(
        cells,
        actions,
        origin,
        first_step,
        direct.first_steps as usize,
    );
    let turn = direct.turn(start);
    lay_line(
        cells,
        actions,
        IVec2::new(turn.0, turn.1),
        IVec2::new(direct.second.0, direct.second.1),
        direct.second_steps as usize,
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flat::jps::DIRECTIONS;
    use crate::flat::{GridEngine, GridPlanner};
    use crate::world::parse_robot_grid;

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

    /// A search ends at the first jump point it pops whose direct route is free, with that
    /// route after the jump points' own, at the cost A* finds. From `S` the way to `G` is
    /// blocked; the search expands `S` and the jump points diagonally above and below it
    /// (each one's direct route, in both orders, meets the wall), then pops `(1, 0)`, from
    /// which `G` is three steps right and two diagonal steps away: without the check it would
    /// expand that point too.
    ///
    /// ```text
    /// . . . . . . .
    /// . . # . . . .
    /// S . # . . . G
    /// . . # . . . .
    /// . . . . . . .
    /// ```
    #[test]
    fn a_search_ends_at_a_jump_point_with_a_free_direct_route() {
        let grid = parse_robot_grid(
            "7 5\n0 0 0 0 0 0 0\n0 0 1 0 0 0 0\n0 0 1 0 0 0 0\n0 0 1 0 0 0 0\n0 0 0 0 0 0 0\n",
        )
        .expect("valid grid");
        let (start, goal) = (IVec2::new(0, 2), IVec2::new(6, 2));
        let a_star = GridPlanner::octile(grid.clone())
            .and_then(|p| p.with_engine(GridEngine::AStar))
            .and_then(|mut p| p.plan(start, goal))
            .expect("free cells");
        for engine in [GridEngine::Jps, GridEngine::JpsPlus] {
            let mut planner = GridPlanner::octile(grid.clone())
                .and_then(|p| p.with_engine(engine))
                .expect("planner");
            let route = planner.plan(start, goal).expect("free cells");
            let name = engine.name();
            assert_eq!(route.cost, a_star.cost, "{name}");
            assert_eq!(route.stats.expanded, 3, "{name}");
            assert_eq!(route.cells.first(), Some(&start), "{name}");
            assert_eq!(route.cells.last(), Some(&goal), "{name}");
            assert_eq!(route.actions.len() + 1, route.cells.len(), "{name}");
            for (pair, action) in route.cells.windows(2).zip(&route.actions) {
                assert_eq!(action.delta(), pair[1] - pair[0], "{name}");
                assert!(grid.is_free(pair[1]), "{name}: {} is blocked", pair[1]);
            }
            assert_eq!(
                crate::flat::format_actions(&route.actions),
                "UR U R R R DR DR",
                "{name}"
            );
        }
    }
}
