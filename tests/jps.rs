//! Jump point search on flat worlds ([`GridEngine::Jps`] and [`GridEngine::JpsPlus`]): the
//! same costs as A* and exhaustive Dijkstra, legal cell-by-cell routes, and a preprocessed
//! table that edits keep equal to a fresh build.

mod support;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use support::grid_oracle::octile_dijkstra;
use support::rng::Rng;
use voxnav::flat::jps_plus::JumpTable;
use voxnav::flat::{GridEngine, GridRoute};
use voxnav::flat::{GridPlanner, IVec2};
use voxnav::world::{Grid2d, parse_movingai_map, parse_movingai_scen};
use voxnav::{Error, MoveCosts, SearchStatus};
#[allow(
    dead_code,
    reason = "the tests use part of the examples' scenario runner"
)]
#[path = "../examples/support/src/movingai.rs"]
mod movingai;
use movingai::lengths_match;

/// Exact integer costs without corner cutting from `start` to every cell (`y * width + x`),
/// at `straight` and `diagonal` per step: the oracle, written without `voxnav::flat`.
fn dijkstra(grid: &Grid2d, start: IVec2, straight: u64, diagonal: u64) -> Vec<Option<u64>> {
    let width = grid.width() as i32;
    let index = |c: IVec2| (c.y * width + c.x) as usize;
    let mut cost = vec![None; grid.width() as usize * grid.height() as usize];
    let mut heap = BinaryHeap::from([Reverse((0u64, start.x, start.y))]);
    cost[index(start)] = Some(0);
    while let Some(Reverse((d, x, y))) = heap.pop() {
        let at = IVec2::new(x, y);
        if cost[index(at)].is_some_and(|known| known < d) {
            continue;
        }
        for dx in -1..=1 {
            for dy in -1..=1 {
                let next = at + IVec2::new(dx, dy);
                if (dx, dy) == (0, 0) || !grid.is_free(next) {
                    continue;
                }
                let diagonal_step = dx != 0 && dy != 0;
                if diagonal_step
                    && !(grid.is_free(at + IVec2::new(dx, 0))
                        && grid.is_free(at + IVec2::new(0, dy)))
                {
                    continue;
                }
                let total = d + if diagonal_step { diagonal } else { straight };
                if cost[index(next)].is_none_or(|known| total < known) {
                    cost[index(next)] = Some(total);
                    heap.push(Reverse((total, next.x, next.y)));
                }
            }
        }
    }
    cost
}

/// Checks that `route` goes from `start` to `goal` by legal 8-connected steps without corner
/// cutting and that its stated cost is the cost of its steps.
fn assert_legal(grid: &Grid2d, route: &GridRoute, start: IVec2, goal: IVec2, costs: &MoveCosts) {
    assert_eq!(route.status, SearchStatus::Found);
    assert_eq!(route.cells.first(), Some(&start));
    assert_eq!(route.cells.last(), Some(&goal));
    assert_eq!(route.actions.len() + 1, route.cells.len());
    let mut paid = 0u64;
    for (pair, action) in route.cells.windows(2).zip(&route.actions) {
        let (from, to) = (pair[0], pair[1]);
        let step = to - from;
        assert_eq!(action.delta(), step, "{from} -> {to}");
        assert!(grid.is_free(to), "{to} is not free");
        if step.x != 0 && step.y != 0 {
            assert!(
                grid.is_free(from + IVec2::new(step.x, 0))
                    && grid.is_free(from + IVec2::new(0, step.y)),
                "{from} -> {to} cuts a corner"
            );
            paid += u64::from(costs.diagonal);
        } else {
            paid += u64::from(costs.straight);
        }
    }
    assert_eq!(route.cost, Some(paid), "{start} -> {goal}");
}

/// A random grid of random size, widths and heights on both sides of multiples of 64, with
/// walls of a random density, in blobs or scattered.
fn random_grid(rng: &mut Rng) -> Grid2d {
    let width = 1 + rng.below(150) as u32;
    let height = 1 + rng.below(150) as u32;
    let density = rng.below(45);
    let mut blocked: Vec<bool> = (0..width * height).map(|_| rng.chance(density)).collect();
    // Some grids get long walls too, which make long jumps end in forced neighbours.
    if rng.chance(50) {
        for _ in 0..rng.below(12) {
            let (x, y) = (rng.below(u64::from(width)), rng.below(u64::from(height)));
            let horizontal = rng.chance(50);
            for i in 0..rng.below(80) {
                let (cx, cy) = if horizontal { (x + i, y) } else { (x, y + i) };
                if cx < u64::from(width) && cy < u64::from(height) {
                    blocked[(cy * u64::from(width) + cx) as usize] = true;
                }
            }
        }
    }
    Grid2d::from_blocked(width, height, blocked).expect("valid size")
}

fn random_free(rng: &mut Rng, grid: &Grid2d) -> Option<IVec2> {
    for _ in 0..200 {
        let cell = IVec2::new(
            rng.coord(grid.width() as i32),
            rng.coord(grid.height() as i32),
        );
        if grid.is_free(cell) {
            return Some(cell);
        }
    }
    None
}

fn planners(grid: &Grid2d, costs: MoveCosts) -> Vec<GridPlanner> {
    GridEngine::ALL
        .into_iter()
        .map(|engine| {
            GridPlanner::new(grid.clone(), true, costs)
                .and_then(|p| p.with_engine(engine))
                .expect("planner")
        })
        .collect()
}

#[test]
fn jump_point_search_is_the_default_where_exact_and_a_star_elsewhere() {
    let grid = Grid2d::from_blocked(3, 1, vec![false; 3]).expect("valid");
    let robot8 = GridPlanner::robot(grid.clone(), true).expect("planner");
    assert_eq!(robot8.engine(), GridEngine::Jps);
    assert_eq!(
        GridPlanner::octile(grid.clone()).expect("planner").engine(),
        GridEngine::Jps
    );
    let robot4 = GridPlanner::robot(grid.clone(), false).expect("planner");
    assert_eq!(robot4.engine(), GridEngine::AStar);
    // Diagonal dearer than two straight steps: the pruning would not be exact.
    let dear = MoveCosts::default().with_diagonal(25);
    let planner = GridPlanner::new(grid.clone(), true, dear).expect("planner");
    assert_eq!(planner.engine(), GridEngine::AStar);
    for engine in [GridEngine::Jps, GridEngine::JpsPlus] {
        let error = GridPlanner::robot(grid.clone(), false)
            .and_then(|p| p.with_engine(engine))
            .expect_err("4-connected jump point search is refused");
        assert!(matches!(error, Error::InvalidSetting(_)), "{error:?}");
        assert!(error.to_string().contains("diagonals off"), "{error}");
    }
}

#[test]
fn random_grids_every_engine_matches_exhaustive_dijkstra() {
    let mut rng = Rng::new(0x0795_2026);
    let (mut found, mut unreachable) = (0, 0);
    for round in 0..120 {
        let grid = random_grid(&mut rng);
        let costs = if round % 3 == 0 {
            MoveCosts::default()
        } else {
            MoveCosts::octile()
        };
        let mut planners = planners(&grid, costs);
        for _ in 0..3 {
            let Some(start) = random_free(&mut rng, &grid) else {
                break;
            };
            let expected = dijkstra(
                &grid,
                start,
                u64::from(costs.straight),
                u64::from(costs.diagonal),
            );
            for _ in 0..6 {
                let Some(goal) = random_free(&mut rng, &grid) else {
                    break;
                };
                let want = expected[(goal.y * grid.width() as i32 + goal.x) as usize];
                for planner in &mut planners {
                    let route = planner.plan(start, goal).expect("free cells");
                    let name = planner.engine().name();
                    match want {
                        Some(cost) => {
                            assert_legal(&grid, &route, start, goal, &costs);
                            assert_eq!(
                                route.cost,
                                Some(cost),
                                "{name} {start} -> {goal} on {grid:?}"
                            );
                        }
                        None => {
                            assert_eq!(route.status, SearchStatus::Unreachable, "{name}");
                            assert!(route.cells.is_empty() && route.cost.is_none());
                        }
                    }
                }
                if want.is_some() {
                    found += 1;
                } else {
                    unreachable += 1;
                }
            }
        }
    }
    assert!(
        found > 1000 && unreachable > 50,
        "{found} found, {unreachable} unreachable"
    );
}

#[test]
fn open_grids_wider_than_many_words_match_dijkstra() {
    // Long jumps across several 64-cell words, forwards and backwards, rows and columns.
    let mut rng = Rng::new(0x0b16_0a11);
    for size in [63u32, 64, 65, 127, 128, 129, 300] {
        let blocked = (0..size * size).map(|_| rng.chance(2)).collect();
        let grid = Grid2d::from_blocked(size, size, blocked).expect("valid");
        let mut planners = planners(&grid, MoveCosts::octile());
        for _ in 0..10 {
            let (Some(start), Some(goal)) =
                (random_free(&mut rng, &grid), random_free(&mut rng, &grid))
            else {
                continue;
            };
            let lengths = octile_dijkstra(&grid, start);
            let want = lengths[(goal.y * size as i32 + goal.x) as usize];
            for planner in &mut planners {
                let route = planner.plan(start, goal).expect("free cells");
                match want {
                    Some(length) => assert!(
                        (route.octile_length() - length).abs() < 1e-9,
                        "{} {start} -> {goal}: {} instead of {length}",
                        planner.engine().name(),
                        route.octile_length()
                    ),
                    None => assert_eq!(route.status, SearchStatus::Unreachable),
                }
            }
        }
    }
}

/// Every scenario of a shipped map: each engine's cost equals A*'s, its route is legal, and
/// its length is the scenario's optimal length; jump point search expands fewer nodes.
fn check_map(map: &str, scen: &str) {
    let grid = parse_movingai_map(map).expect("map parses");
    let scenarios = parse_movingai_scen(scen).expect("scenarios parse");
    let costs = MoveCosts::octile();
    let mut planners = planners(&grid, costs);
    let mut expanded = [0u64; 3];
    for scenario in &scenarios {
        let mut reference = None;
        for (i, planner) in planners.iter_mut().enumerate() {
            let route = planner
                .plan(scenario.start, scenario.goal)
                .expect("valid cells");
            assert_legal(&grid, &route, scenario.start, scenario.goal, &costs);
            assert!(
                lengths_match(route.octile_length(), scenario.optimal_length),
                "{} line {}: {} instead of {}",
                planner.engine().name(),
                scenario.line,
                route.octile_length(),
                scenario.optimal_length
            );
            match reference {
                None => reference = route.cost,
                Some(cost) => assert_eq!(route.cost, Some(cost), "line {}", scenario.line),
            }
            expanded[i] += route.stats.expanded;
        }
    }
    assert!(expanded[1] < expanded[0] / 2, "{expanded:?}");
    assert!(expanded[2] <= expanded[1] * 2, "{expanded:?}");
}

#[test]
fn every_arena_scenario_costs_the_same_with_every_engine() {
    check_map(
        include_str!("data/arena.map"),
        include_str!("data/arena.map.scen"),
    );
}

#[test]
fn every_den312d_scenario_costs_the_same_with_every_engine() {
    check_map(
        include_str!("data/den312d.map"),
        include_str!("data/den312d.map.scen"),
    );
}

#[test]
fn a_goal_in_another_part_of_the_grid_is_unreachable_without_search() {
    // A wall splits the grid; a diagonal gap would need a corner cut.
    let rows = ["..#...", "..#...", "...#..", "...#.."];
    let blocked = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '#'))
        .collect();
    let grid = Grid2d::from_blocked(6, 4, blocked).expect("valid");
    for mut planner in planners(&grid, MoveCosts::octile()) {
        let route = planner
            .plan(IVec2::new(0, 0), IVec2::new(5, 3))
            .expect("free cells");
        assert_eq!(route.status, SearchStatus::Unreachable);
        if planner.engine() != GridEngine::AStar {
            assert_eq!(route.stats.expanded, 0, "{}", planner.engine().name());
        }
    }
}

/// The direct route (a diagonal run and a straight one, in either order) is taken without a
/// search only when it is legal: a blocked side cell of one diagonal step (a corner it would
/// cut) makes the jump point searches search, and still find the cheapest legal route.
#[test]
fn a_free_direct_route_needs_no_search_and_a_cut_corner_is_not_taken() {
    let grid_of = |rows: &[&str]| {
        let blocked = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect();
        Grid2d::from_blocked(rows[0].len() as u32, rows.len() as u32, blocked).expect("valid")
    };
    let costs = MoveCosts::octile();
    let (start, goal) = (IVec2::new(0, 0), IVec2::new(6, 3));
    // Free: diagonally to (3, 3), then straight on. (The other order is blocked at (4, 0).)
    let open = grid_of(&["....#..", ".......", ".......", "......."]);
    // Each order cuts a corner: the diagonal-first route at (2, 1) beside its second step,
    // the straight-first one at (3, 1) beside its first diagonal step from (3, 0).
    let cut = grid_of(&[".......", "..##...", ".......", "......."]);
    for (grid, direct) in [(&open, true), (&cut, false)] {
        let cheapest = dijkstra(
            grid,
            start,
            u64::from(costs.straight),
            u64::from(costs.diagonal),
        )[(goal.y * grid.width() as i32 + goal.x) as usize];
        for mut planner in planners(grid, costs) {
            let route = planner.plan(start, goal).expect("free cells");
            let name = planner.engine().name();
            assert_eq!(route.cost, cheapest, "{name}, direct {direct}");
            assert_legal(grid, &route, start, goal, &costs);
            if planner.engine() != GridEngine::AStar {
                assert_eq!(route.stats.expanded == 0, direct, "{name}, direct {direct}");
            }
        }
    }
}

/// A route reused across queries ([`GridPlanner::plan_into`]) holds each answer exactly as a
/// fresh [`GridPlanner::plan`] gives it: a long route, then a short one, an unreachable goal
/// and a refused cell leave nothing of the one before.
#[test]
fn a_reused_route_holds_each_answer_as_a_fresh_one() {
    let rows = ["......#...", "..##..#...", "......#...", ".#....#..."];
    let blocked = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '#'))
        .collect();
    let grid = Grid2d::from_blocked(10, 4, blocked).expect("valid");
    let queries = [
        (IVec2::new(0, 3), IVec2::new(5, 0)),
        (IVec2::new(2, 0), IVec2::new(3, 0)),
        (IVec2::new(0, 0), IVec2::new(9, 3)),
        (IVec2::new(5, 3), IVec2::new(0, 2)),
    ];
    for mut planner in planners(&grid, MoveCosts::octile()) {
        let mut reused = GridRoute::unreachable();
        for (start, goal) in queries {
            planner
                .plan_into(start, goal, &mut reused)
                .expect("free cells");
            let fresh = planner.plan(start, goal).expect("free cells");
            assert_eq!(
                (&reused.cells, &reused.actions, reused.cost, reused.status),
                (&fresh.cells, &fresh.actions, fresh.cost, fresh.status),
                "{} {start} -> {goal}",
                planner.engine().name()
            );
        }
        let error = planner.plan_into(IVec2::new(6, 0), IVec2::new(0, 0), &mut reused);
        assert!(matches!(error, Err(Error::InvalidCell { .. })), "{error:?}");
        assert!(reused.cells.is_empty() && reused.actions.is_empty());
        assert_eq!(
            (reused.status, reused.cost),
            (SearchStatus::Unreachable, None)
        );
    }
}

/// Every entry of two tables, compared through the public reader.
fn assert_same_table(edited: &JumpTable, fresh: &JumpTable, context: &str) {
    for y in -1..=edited.height() as i32 {
        for x in -1..=edited.width() as i32 {
            for dx in -1..=1 {
                for dy in -1..=1 {
                    assert_eq!(
                        edited.distance(x, y, dx, dy),
                        fresh.distance(x, y, dx, dy),
                        "({x}, {y}) towards ({dx}, {dy}) {context}"
                    );
                }
            }
        }
    }
}

#[test]
fn jump_tables_after_random_edits_equal_a_fresh_build() {
    let mut rng = Rng::new(0x00ed_17ab);
    for round in 0..40 {
        let grid = random_grid(&mut rng);
        let (width, height) = (grid.width() as i32, grid.height() as i32);
        let mut cells: Vec<bool> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| !grid.is_free(IVec2::new(x, y)))
            .collect();
        let mut table = JumpTable::new(&grid).expect("small grid");
        for edit in 0..25 {
            let (x, y) = (rng.coord(width), rng.coord(height));
            let blocked = rng.chance(50);
            assert!(table.set_free(x, y, !blocked));
            cells[(y * width + x) as usize] = blocked;
            if edit % 5 == 4 {
                let now = Grid2d::from_blocked(grid.width(), grid.height(), cells.clone())
                    .expect("valid");
                assert_same_table(
                    &table,
                    &JumpTable::new(&now).expect("small grid"),
                    &format!("round {round} edit {edit}"),
                );
            }
        }
        assert!(!table.set_free(width, 0, true), "outside the grid");
        assert!(!table.set_free(0, -1, false), "outside the grid");
    }
}

#[test]
fn a_grid_too_large_for_a_jump_table_is_an_error() {
    // 4097 x 4097 cells, one more row and column than 2^24 cells allow.
    let side = 4097;
    let grid =
        Grid2d::from_blocked(side, side, vec![false; (side * side) as usize]).expect("valid");
    let error = JumpTable::new(&grid).expect_err("too many cells");
    assert!(matches!(error, Error::InvalidSetting(_)), "{error:?}");
    assert!(error.to_string().contains("4097x4097 grid"), "{error}");
}
