//! Flat worlds: robot grids and Moving AI maps through the voxel engine's A*.

mod support;

use std::collections::BTreeSet;

use support::Outcomes;
use support::grid_oracle::{bfs, octile_dijkstra};
use support::parse_error;
use support::rng::Rng;
use support::worlds::{random_free_cell, random_grid};
use voxnav::flat::IVec2;
use voxnav::flat::octile_length;
use voxnav::flat::{Action, GridPlanner, GridRoute, format_actions};
use voxnav::world::{FlatWorld, Grid2d, parse_movingai_map, parse_movingai_scen, parse_robot_grid};
use voxnav::{Error, IVec3, SearchStatus, VoxelWorld};
#[allow(
    dead_code,
    reason = "the tests use part of the examples' scenario runner"
)]
#[path = "../examples/support/src/movingai.rs"]
mod movingai;
use movingai::{LENGTH_TOLERANCE, lengths_match, run_scenarios};

const ROBOT_5X3: &str = include_str!("data/robot_5x3.txt");
const ROBOT_20X15: &str = include_str!("data/robot_20x15.txt");

fn cell(x: i32, y: i32) -> IVec2 {
    IVec2::new(x, y)
}

/// Checks a 4-connected route against the number of actions breadth-first search needs
/// (`None`: unreachable): a legal route of that length, or unreachable with no route.
/// Returns whether a route was expected.
fn assert_matches_bfs(
    grid: &Grid2d,
    route: &GridRoute,
    (start, goal): (IVec2, IVec2),
    expected: Option<usize>,
) -> bool {
    match expected {
        Some(actions) => {
            assert_legal(grid, route, start, goal, false);
            assert_eq!(route.actions.len(), actions, "{grid:?} {start} -> {goal}");
        }
        None => {
            assert_eq!(route.status, SearchStatus::Unreachable, "{start} -> {goal}");
            assert!(
                route.cells.is_empty() && route.actions.is_empty(),
                "{start} -> {goal}"
            );
        }
    }
    expected.is_some()
}

/// Checks that `route` walks from `start` through free cells, one legal action at a time
/// (diagonals only when `diagonals`, never cutting a blocked corner), and ends at `goal`.
fn assert_legal(grid: &Grid2d, route: &GridRoute, start: IVec2, goal: IVec2, diagonals: bool) {
    assert_eq!(route.status, SearchStatus::Found);
    assert_eq!(route.cells.len(), route.actions.len() + 1);
    let mut at = start;
    assert_eq!(route.cells[0], start);
    for (&action, &next) in route.actions.iter().zip(&route.cells[1..]) {
        assert!(diagonals || !action.is_diagonal(), "diagonal {action} used");
        let to = at + action.delta();
        assert_eq!(
            to, next,
            "action {action} from {at} does not lead to {next}"
        );
        assert!(
            grid.is_free(to),
            "action {action} from {at} enters a blocked cell"
        );
        if action.is_diagonal() {
            let d = action.delta();
            assert!(
                grid.is_free(at + IVec2::new(d.x, 0)) && grid.is_free(at + IVec2::new(0, d.y)),
                "action {action} from {at} cuts a corner"
            );
        }
        at = to;
    }
    assert_eq!(at, goal);
}

// ---------------------------------------------------------------------------------------
// The article's grids

#[test]
fn article_5x3_example_from_top_left_to_top_right_takes_eight_actions() {
    let grid = parse_robot_grid(ROBOT_5X3).expect("the article's grid parses");
    assert_eq!((grid.width(), grid.height()), (5, 3));
    let mut planner = GridPlanner::robot(grid.clone(), false).expect("planner");
    let route = planner.plan(cell(0, 0), cell(4, 0)).expect("valid cells");
    assert_legal(&grid, &route, cell(0, 0), cell(4, 0), false);
    // The article's answer is `R D D R R U U R`; it notes that it is optimal but not unique.
    // The only other optimal answer goes right before the last step up.
    let answer = format_actions(&route.actions);
    assert!(
        answer == "R D D R R U U R" || answer == "R D D R R U R U",
        "unexpected answer {answer}"
    );
    assert_eq!(route.cost, Some(80));
}

#[test]
fn article_5x3_example_with_the_assignment_command_line_coordinates() {
    let grid = parse_robot_grid(ROBOT_5X3).expect("parses");
    let mut planner = GridPlanner::robot(grid, false).expect("planner");
    // `robotplanner env.txt 0 2 4 1`: the only shortest route.
    let route = planner.plan(cell(0, 2), cell(4, 1)).expect("valid cells");
    assert_eq!(format_actions(&route.actions), "R R R U R");
}

#[test]
fn start_equal_to_goal_gives_no_actions() {
    let grid = parse_robot_grid(ROBOT_5X3).expect("parses");
    let mut planner = GridPlanner::robot(grid, false).expect("planner");
    let route = planner.plan(cell(3, 1), cell(3, 1)).expect("valid cells");
    assert!(route.is_found());
    assert_eq!(route.cells, vec![cell(3, 1)]);
    assert_eq!(format_actions(&route.actions), "");
}

#[test]
fn diagonal_moves_on_the_5x3_example_never_cut_corners() {
    let grid = parse_robot_grid(ROBOT_5X3).expect("parses");
    let mut planner = GridPlanner::robot(grid.clone(), true).expect("planner");
    let route = planner.plan(cell(0, 0), cell(4, 0)).expect("valid cells");
    assert_legal(&grid, &route, cell(0, 0), cell(4, 0), true);
    // (0,0) -> (1,1) would cut the blocked corner (0,1): the route still starts with R.
    assert_eq!(route.actions[0], Action::Right);
    // R D D R R, then one diagonal UR replaces U R: 6 straight + 1 diagonal at 10 / 14.
    assert_eq!(route.actions.len(), 7);
    assert_eq!(route.cost, Some(6 * 10 + 14));
}

#[test]
fn article_20x15_grid_matches_breadth_first_search_between_all_free_cells() {
    let grid = parse_robot_grid(ROBOT_20X15).expect("the article's grid parses");
    assert_eq!((grid.width(), grid.height()), (20, 15));
    assert_eq!(grid.free_cells(), 179);
    let mut planner = GridPlanner::robot(grid.clone(), false).expect("planner");
    let free: Vec<IVec2> = (0..15)
        .flat_map(|y| (0..20).map(move |x| cell(x, y)))
        .filter(|&c| grid.is_free(c))
        .collect();
    let mut outcomes = Outcomes::default();
    for &start in free.iter().step_by(5) {
        let expected = bfs(&grid, start);
        for &goal in &free {
            let route = planner.plan(start, goal).expect("free cells");
            let actions = expected[(goal.y * 20 + goal.x) as usize];
            outcomes.record(assert_matches_bfs(&grid, &route, (start, goal), actions));
        }
    }
    // The grid has walled-off pockets, so both outcomes are exercised.
    outcomes.assert_both_seen(5000, 500);
}

#[test]
fn blocked_or_outside_cells_are_typed_errors() {
    let grid = parse_robot_grid(ROBOT_5X3).expect("parses");
    let mut planner = GridPlanner::robot(grid, false).expect("planner");
    #[rustfmt::skip]
    let cases = [
        (cell(0, 1), cell(0, 0), "start cell [x=0, y=1] is blocked"),
        (cell(0, 0), cell(2, 0), "goal cell [x=2, y=0] is blocked"),
        (cell(5, 0), cell(0, 0), "start cell [x=5, y=0] is outside the 5x3 grid (x must be 0 to 4, y 0 to 2)"),
        (cell(0, 0), cell(0, -1), "goal cell [x=0, y=-1] is outside the 5x3 grid (x must be 0 to 4, y 0 to 2)"),
    ];
    for (start, goal, message) in cases {
        let err = planner.plan(start, goal).expect_err("invalid cell");
        assert!(matches!(err, Error::InvalidCell { .. }), "{err:?}");
        assert_eq!(err.to_string(), message);
    }
}

// ---------------------------------------------------------------------------------------
// The flat world itself

#[test]
fn flat_world_has_a_floor_walls_to_the_top_and_nothing_outside() {
    let grid = parse_robot_grid("2 1\n0 1\n").expect("parses");
    let world = FlatWorld::new(grid, 2).expect("valid height");
    let bounds = world.bounds().expect("finite");
    assert_eq!((bounds.min, bounds.max), (IVec3::ZERO, IVec3::new(2, 3, 1)));
    // The free cell (0, 0): floor at y = 0, air at 1 and 2.
    assert!(world.is_standable(IVec3::new(0, 0, 0)));
    assert!(!world.is_passable(IVec3::new(0, 0, 0)));
    assert!(world.is_passable(IVec3::new(0, 1, 0)) && world.is_passable(IVec3::new(0, 2, 0)));
    assert!(!world.is_standable(IVec3::new(0, 1, 0)));
    // The blocked cell (1, 0): solid all the way up, and nothing above the top.
    for y in 0..3 {
        assert!(!world.is_passable(IVec3::new(1, y, 0)));
        assert!(world.is_standable(IVec3::new(1, y, 0)));
    }
    for outside in [
        IVec3::new(0, 3, 0),
        IVec3::new(1, 3, 0),
        IVec3::new(0, -1, 0),
        IVec3::new(-1, 1, 0),
        IVec3::new(2, 1, 0),
        IVec3::new(0, 1, 1),
        IVec3::new(0, 0, -1),
    ] {
        assert!(!world.is_passable(outside), "{outside}");
        assert!(!world.is_standable(outside), "{outside}");
    }
    assert!(FlatWorld::new(world.grid().clone(), 0).is_err());
}

#[test]
fn a_single_wall_cell_is_never_climbed() {
    // Row 1 is a wall with one gap at x = 4; going round costs far more than climbing would.
    let grid = parse_robot_grid("5 3\n0 0 0 0 0\n1 1 1 1 0\n0 0 0 0 0\n").expect("parses");
    let mut planner = GridPlanner::robot(grid.clone(), false).expect("planner");
    let route = planner.plan(cell(0, 0), cell(0, 2)).expect("valid");
    assert_legal(&grid, &route, cell(0, 0), cell(0, 2), false);
    assert_eq!(format_actions(&route.actions), "R R R R D D L L L L");
}

#[test]
fn actions_and_octile_lengths() {
    for action in Action::ALL {
        assert_eq!(
            Action::between(cell(3, 3), cell(3, 3) + action.delta()),
            Some(action)
        );
        assert_eq!(action.to_string(), action.as_str());
    }
    assert_eq!(Action::between(cell(0, 0), cell(2, 0)), None);
    assert_eq!(Action::between(cell(0, 0), cell(0, 0)), None);
    let actions = [Action::Right, Action::DownRight, Action::Up, Action::UpLeft];
    assert_eq!(format_actions(&actions), "R DR U UL");
    assert!((octile_length(&actions) - (2.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-12);
    assert!(lengths_match(100.0, 100.0 + 0.9e-2));
    assert!(!lengths_match(100.0, 100.0 + 1.1e-2));
    assert!(lengths_match(0.0, 0.0) && !lengths_match(0.0, 2.0 * LENGTH_TOLERANCE));
}

// ---------------------------------------------------------------------------------------
// Random grids against independent searches

#[test]
fn random_grids_4_connected_routes_match_breadth_first_search() {
    let mut rng = Rng::new(0x2D6A_11F0);
    let mut outcomes = Outcomes::default();
    for _ in 0..400 {
        let grid = random_grid(&mut rng);
        let mut planner = GridPlanner::robot(grid.clone(), false).expect("planner");
        for _ in 0..4 {
            let (Some(start), Some(goal)) = (
                random_free_cell(&mut rng, &grid),
                random_free_cell(&mut rng, &grid),
            ) else {
                continue;
            };
            let expected = bfs(&grid, start)[(goal.y * grid.width() as i32 + goal.x) as usize];
            let route = planner.plan(start, goal).expect("free cells");
            outcomes.record(assert_matches_bfs(&grid, &route, (start, goal), expected));
        }
    }
    outcomes.assert_both_seen(1000, 200);
}

#[test]
fn random_grids_8_connected_octile_routes_match_dijkstra() {
    let mut rng = Rng::new(0x0C71_1E5E);
    let mut found = 0;
    for _ in 0..150 {
        let grid = random_grid(&mut rng);
        let mut planner = GridPlanner::octile(grid.clone()).expect("planner");
        let Some(start) = random_free_cell(&mut rng, &grid) else {
            continue;
        };
        let expected = octile_dijkstra(&grid, start);
        for _ in 0..4 {
            let Some(goal) = random_free_cell(&mut rng, &grid) else {
                continue;
            };
            let route = planner.plan(start, goal).expect("free cells");
            match expected[(goal.y * grid.width() as i32 + goal.x) as usize] {
                Some(length) => {
                    assert_legal(&grid, &route, start, goal, true);
                    assert!(
                        (route.octile_length() - length).abs() < 1e-9,
                        "{start} -> {goal}: {} instead of {length}",
                        route.octile_length()
                    );
                    found += 1;
                }
                None => assert_eq!(route.status, SearchStatus::Unreachable),
            }
        }
    }
    assert!(found > 300, "{found} routes found");
}

// ---------------------------------------------------------------------------------------
// Moving AI benchmark files

fn check_benchmark(map: &str, scen: &str, scenarios: usize) {
    let grid = parse_movingai_map(map).expect("map parses");
    let list = parse_movingai_scen(scen).expect("scenarios parse");
    assert_eq!(list.len(), scenarios);
    let mut planner = GridPlanner::octile(grid.clone()).expect("planner");
    let summary = run_scenarios(&mut planner, &list).expect("scenarios fit the map");
    assert_eq!(summary.scenarios, scenarios);
    assert_eq!((summary.passed, summary.failed), (scenarios, 0));
    assert!(summary.worst_relative <= LENGTH_TOLERANCE);
    assert!(summary.expanded > 0);
    // Every route is legal and its length is computed from its own moves.
    for scenario in list.iter().step_by(7) {
        let route = planner.plan(scenario.start, scenario.goal).expect("valid");
        assert_legal(&grid, &route, scenario.start, scenario.goal, true);
        assert!(lengths_match(
            route.octile_length(),
            scenario.optimal_length
        ));
    }
}

#[test]
fn every_arena_scenario_has_its_optimal_length() {
    check_benchmark(
        include_str!("data/arena.map"),
        include_str!("data/arena.map.scen"),
        160,
    );
}

#[test]
fn every_den312d_scenario_has_its_optimal_length() {
    check_benchmark(
        include_str!("data/den312d.map"),
        include_str!("data/den312d.map.scen"),
        320,
    );
}

#[test]
fn a_wrong_optimal_length_counts_as_failed() {
    let grid = parse_movingai_map("type octile\nheight 1\nwidth 3\nmap\n...\n").expect("parses");
    let scen = "version 1\n\
                0\tm.map\t3\t1\t0\t0\t2\t0\t2\n\
                0\tm.map\t3\t1\t0\t0\t2\t0\t2.5\n\
                0\tm.map\t3\t1\t1\t0\t1\t0\t0\n";
    let list = parse_movingai_scen(scen).expect("parses");
    let mut planner = GridPlanner::octile(grid).expect("planner");
    let summary = run_scenarios(&mut planner, &list).expect("valid");
    assert_eq!(
        (summary.scenarios, summary.passed, summary.failed),
        (3, 2, 1)
    );
    assert!((summary.worst_difference - 0.5).abs() < 1e-12);
    assert_eq!(summary.worst_line, Some(3));
}

#[test]
fn movingai_map_characters() {
    let grid = parse_movingai_map("type octile\nwidth 4\nheight 2\nmap\n.GS@\nTW. \n")
        .expect("width before height is accepted");
    let free: BTreeSet<(i32, i32)> = (0..2)
        .flat_map(|y| (0..4).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_free(cell(x, y)))
        .collect();
    assert_eq!(free, BTreeSet::from([(0, 0), (1, 0), (2, 0), (2, 1)]));
}

// ---------------------------------------------------------------------------------------
// Parser errors: each names its line (and column) in words

#[test]
fn robot_grid_format_variants_are_accepted() {
    let expected = parse_robot_grid("3 2\n0 1 0\n0 0 1\n").expect("plain");
    for text in [
        "3\t2\n0\t1\t0\n0\t0\t1\n",
        "3 2\r\n0 1 0\r\n0 0 1\r\n",
        "3    2 \n 0  1\t0 \n0 0 1",
        "3 2\n0 1 0\n0 0 1\n\n  \n",
    ] {
        assert_eq!(parse_robot_grid(text).expect(text), expected, "{text:?}");
    }
}

#[test]
fn robot_grid_errors_name_the_line_and_problem() {
    #[rustfmt::skip]
    let cases: &[(&str, usize, usize, &str)] = &[
        ("", 1, 1, "the first line must be `width height`"),
        ("5\n", 1, 1, "the first line must be `width height`"),
        ("5 3 1\n", 1, 5, "the first line must be `width height`"),
        ("five 3\n", 1, 1, "the width must be a whole number, found `five`"),
        ("5 -3\n", 1, 3, "the height must be a whole number, found `-3`"),
        ("0 3\n", 1, 1, "the grid width must be at least 1"),
        ("1000000000 1000000000\n0\n", 1, 1, "the grid width 1000000000 is larger than the supported 1048576"),
        ("3 2\n0 1 0\n", 3, 1, "the file ends after 1 of the 2 rows"),
        ("3 2\n0 1\n0 0 0\n", 2, 4, "row 1 has 2 values, but the header announces 3"),
        ("3 2\n0 1 0 1\n0 0 0\n", 2, 7, "row 1 has more than the 3 values"),
        ("3 2\n0 1 0\n\n0 0 0\n", 3, 1, "row 2 has 0 values"),
        ("3 2\n0 1 0\n0 2 0\n", 3, 3, "expected 0 (free) or 1 (blocked), found `2`"),
        ("3 2\n0 1 0\n0 0 x\n", 3, 5, "found `x`"),
        ("3 2\n0 1 0\n0 0 01\n", 3, 5, "found `01`"),
        ("3 2\n0 1 0\n0 0 0\n0 0 0\n", 4, 1, "unexpected text after the last of the 2 rows"),
        ("3 2\n0 1 0\n0 0 0\n\n  # end\n", 5, 3, "unexpected text after the last"),
    ];
    for &(text, line, column, message) in cases {
        let (l, c, m) = parse_error(parse_robot_grid(text));
        assert_eq!((l, c), (line, column), "{text:?}: {m}");
        assert!(m.contains(message), "{text:?}: `{m}` lacks `{message}`");
    }
}

#[test]
fn a_huge_header_with_few_rows_fails_fast_without_allocating_the_header_size() {
    // Within the side limit, the header asks for 2^40 cells; storage grows with the rows read.
    let (line, _, message) = parse_error(parse_robot_grid("1048576 1048576\n0 1\n"));
    assert_eq!(line, 2);
    assert!(message.contains("row 1 has 2 values"), "{message}");
}

#[test]
fn movingai_map_errors_name_the_line_and_problem() {
    let ok = "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n";
    assert!(parse_movingai_map(ok).is_ok());
    #[rustfmt::skip]
    let cases: &[(&str, usize, &str)] = &[
        ("", 1, "the file ends before the header line `type octile`"),
        ("type tile\n", 1, "only `type octile` maps are supported, found `type tile`"),
        ("height 2\n", 1, "the first line must be `type octile`"),
        ("type octile\nheight 2\n", 3, "the file ends before"),
        ("type octile\nheight two\nwidth 3\nmap\n", 2, "the height must be a whole number"),
        ("type octile\nheight 2\nheight 3\nmap\n", 3, "expected `width W`"),
        ("type octile\nsize 2\n", 2, "expected `height H` or `width W`"),
        ("type octile\nheight 2\nwidth 0\nmap\n", 3, "the grid width must be at least 1"),
        ("type octile\nheight 2\nwidth 3\nrows\n", 4, "expected `map`"),
        ("type octile\nheight 2\nwidth 3\nmap\n...\n", 6, "the file ends after 1 of the 2"),
        ("type octile\nheight 2\nwidth 3\nmap\n..\n...\n", 5, "map row 1 has 2 characters"),
        ("type octile\nheight 2\nwidth 3\nmap\n...\n....\n", 6, "map row 2 is longer"),
        ("type octile\nheight 2\nwidth 3\nmap\n...\n...\n...\n", 7, "unexpected text after"),
    ];
    for &(text, line, message) in cases {
        let (l, _, m) = parse_error(parse_movingai_map(text));
        assert_eq!(l, line, "{text:?}: {m}");
        assert!(m.contains(message), "{text:?}: `{m}` lacks `{message}`");
    }
}

#[test]
fn movingai_scen_errors_name_the_line_and_problem() {
    let row = "0\tm.map\t3\t2\t0\t0\t2\t1\t2.41421";
    assert_eq!(
        parse_movingai_scen(&format!("version 1.0\n{row}\n\n"))
            .map(|s| s.len())
            .ok(),
        Some(1)
    );
    #[rustfmt::skip]
    let cases: Vec<(String, usize, usize, &str)> = vec![
        (String::new(), 1, 1, "the first line must be `version 1`"),
        (format!("{row}\n"), 1, 1, "the first line must be `version 1`"),
        ("version 2\n".into(), 1, 9, "only scenario files of `version 1`"),
        (format!("version 1\n{row}\n0\tm.map\t3\t2\n"), 3, 1, "a scenario has 9 fields"),
        (format!("version 1\n{row}\t7\n"), 2, 1, "found 10"),
        ("version 1\nx\tm.map\t3\t2\t0\t0\t2\t1\t2\n".into(), 2, 1, "the bucket must be"),
        ("version 1\n0\tm.map\t3\t2\t-1\t0\t2\t1\t2\n".into(), 2, 13, "the start x must be"),
        ("version 1\n0\tm.map\t3\t2\t0\t0\t2\tb\t2\n".into(), 2, 19, "the goal y must be"),
        ("version 1\n0\tm.map\t3\t2\t0\t0\t2\t1\t-2\n".into(), 2, 21, "non-negative number"),
        ("version 1\n0\tm.map\t3\t2\t0\t0\t2\t1\tinf\n".into(), 2, 21, "non-negative number"),
    ];
    for (text, line, column, message) in &cases {
        let (l, c, m) = parse_error(parse_movingai_scen(text));
        assert_eq!((l, c), (*line, *column), "{text:?}: {m}");
        assert!(m.contains(message), "{text:?}: `{m}` lacks `{message}`");
    }
}

#[test]
fn scenarios_that_do_not_fit_the_map_are_errors() {
    let grid = parse_movingai_map("type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n").expect("ok");
    let mut planner = GridPlanner::octile(grid).expect("planner");
    #[rustfmt::skip]
    let cases = [
        ("0\tm\t4\t2\t0\t0\t2\t1\t3", "expects a 4x2 map, but the map is 3x2"),
        ("0\tm\t3\t2\t1\t1\t2\t1\t3", "start cell [x=1, y=1] is blocked"),
        ("0\tm\t3\t2\t0\t0\t3\t1\t3", "goal cell [x=3, y=1] is outside the 3x2 grid"),
    ];
    for (row, message) in cases {
        let list = parse_movingai_scen(&format!("version 1\n\n{row}\n")).expect("parses");
        let (line, _, m) = parse_error(run_scenarios(&mut planner, &list));
        assert_eq!(line, 3);
        assert!(m.contains(message), "`{m}` lacks `{message}`");
    }
}

#[test]
fn flat_world_columns_agree_with_cell_by_cell_answers() {
    let grid = parse_robot_grid("3 2\n0 1 0\n1 0 0\n").expect("parses");
    let world = FlatWorld::new(grid, 2).expect("valid height");
    for x in -1..=3 {
        for z in -1..=2 {
            for y0 in -70..=5 {
                for count in [0, 1, 2, 3, 5, 63, 64] {
                    let column = world.column(x, z, y0, count);
                    let (mut passable, mut standable) = (0u64, 0u64);
                    for i in 0..count {
                        let p = IVec3::new(x, y0 + i as i32, z);
                        passable |= u64::from(world.is_passable(p)) << i;
                        standable |= u64::from(world.is_standable(p)) << i;
                    }
                    assert_eq!(
                        (column.passable, column.standable),
                        (passable, standable),
                        "column {x},{z} from {y0}, {count} cells"
                    );
                    let around = world.columns_around(x, z, y0, count);
                    for (i, (dx, dz)) in voxnav::world::AROUND.into_iter().enumerate() {
                        assert_eq!(around[i], world.column(x + dx, z + dz, y0, count));
                    }
                }
            }
        }
    }
}

#[test]
fn a_wide_grid_parses_in_linear_time_and_columns_count_characters() {
    // 200 000 columns in one row: quadratic column counting would take minutes.
    let width = 200_000;
    let row = vec!["0"; width].join(" ");
    let grid = parse_robot_grid(&format!("{width} 1\n{row}\n")).expect("parses");
    assert_eq!(grid.free_cells(), width);
    let (_, column, _) = parse_error(parse_robot_grid(&format!("{width} 1\n{row} é\n")));
    assert_eq!(column, 2 * width + 1);
    // Columns count characters, not bytes.
    let (_, column, message) = parse_error(parse_robot_grid("2 1\né 0\n"));
    assert_eq!(
        (column, message.as_str()),
        (1, "expected 0 (free) or 1 (blocked), found `é`")
    );
    let (_, column, _) = parse_error(parse_robot_grid("2 1\n0\u{3000}é\n"));
    assert_eq!(column, 3);
}

#[test]
fn long_input_is_cut_short_in_error_messages() {
    let long = "x".repeat(10_000);
    let (_, _, message) = parse_error(parse_robot_grid(&format!("1 1\n{long}\n")));
    assert_eq!(
        message,
        format!(
            "expected 0 (free) or 1 (blocked), found `{}...`",
            "x".repeat(40)
        )
    );
}
