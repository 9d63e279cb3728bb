//! The Moving AI 3D voxel benchmark: the first 300 problems of `Simple` (in
//! `tests/data/movingai3d/`, source in its README) routed with a flier of height 1, each
//! route's length within 0.01 of the published optimal cost; and the parsers' errors.

use std::path::Path;

use voxnav::engine::{OCTILE_SCALE, Pathfinder};
use voxnav::world::formats::movingai3d::voxel_route_length;
use voxnav::world::{parse_movingai_3dmap, parse_movingai_3dscen};
use voxnav::{Agent, Error, IVec3, MoveCosts, SearchOptions, SearchStatus, VoxelWorld};

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/movingai3d")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_first_300_simple_problems_match_their_optimal_costs() {
    let world = parse_movingai_3dmap(&data("Simple.3dmap")).unwrap();
    assert_eq!(world.size(), IVec3::new(105, 132, 105));
    assert_eq!(world.free_cells(), 105 * 132 * 105 - 512);
    let file = parse_movingai_3dscen(&data("Simple.3dmap.3dscen")).unwrap();
    assert_eq!(file.map, "Simple.3dmap");
    assert_eq!(file.scenarios.len(), 300);
    let mut flier = Pathfinder::new(Agent::flier(1), MoveCosts::octile()).unwrap();
    let mut worst = 0.0f64;
    for scenario in &file.scenarios {
        let result = flier
            .find_path(
                &world,
                scenario.start,
                scenario.goal,
                &SearchOptions::default(),
            )
            .unwrap();
        assert_eq!(result.status, SearchStatus::Found, "line {}", scenario.line);
        let length = voxel_route_length(&result.path).unwrap();
        assert!(
            (length - scenario.optimal).abs() <= 0.01,
            "line {}: length {length}, optimal {}",
            scenario.line,
            scenario.optimal
        );
        // The integer cost at the fixed-point scale tells the same length.
        let cost = result.cost.unwrap() as f64 / f64::from(OCTILE_SCALE);
        assert!((cost - length).abs() < 1e-3, "line {}", scenario.line);
        assert!(result.path.iter().all(|&p| world.is_passable(p)));
        worst = worst.max((length - scenario.optimal).abs());
    }
    assert!(worst < 1e-4, "worst difference {worst}");
}

#[test]
fn a_wrong_optimal_cost_would_be_noticed() {
    // The check above can fail: the route of the first problem is not 1% shorter.
    let world = parse_movingai_3dmap(&data("Simple.3dmap")).unwrap();
    let file = parse_movingai_3dscen(&data("Simple.3dmap.3dscen")).unwrap();
    let first = file.scenarios[0];
    let mut flier = Pathfinder::new(Agent::flier(1), MoveCosts::octile()).unwrap();
    let result = flier
        .find_path(&world, first.start, first.goal, &SearchOptions::default())
        .unwrap();
    let length = voxel_route_length(&result.path).unwrap();
    assert!((length - first.optimal * 0.99).abs() > 0.01);
}

#[test]
fn malformed_files_are_parse_errors_not_panics() {
    let cases: &[(&str, usize)] = &[
        ("voxel 10 10\n", 1),
        ("voxel 10 10 10\n1 2 3\n1 2 x\n", 3),
        ("voxel 10 10 10\n1 2 3\n10 2 3\n", 3),
        ("voxel 10 10 10\n-1 2 3\n", 2),
        ("voxel 99999999999 1 1\n", 1),
        ("voxel 100000 100000 100000\n", 1),
        // Found by the movingai_3dmap fuzz target: 7e9 cells passed the old 2^33 limit and
        // cost 900 MB and 12 s before the first voxel line.
        ("voxel 105 132 505501\n", 1),
        ("grid 1 1 1\n", 1),
    ];
    for &(text, line) in cases {
        match parse_movingai_3dmap(text) {
            Err(Error::Parse { line: at, .. }) => assert_eq!(at, line, "{text:?}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let scenarios: &[(&str, usize)] = &[
        ("", 1),
        ("version 1\n", 2),
        ("version 1\nm\n1 2 3 4 5 6 7.5\n", 3),
        ("version 1\nm\n1 2 3 4 5 6 7.5 1 9\n", 3),
        ("version 1\nm\n1 2 3 4 5 6 7.5 1\n1 2 3 4 5 z 7.5 1\n", 4),
    ];
    for &(text, line) in scenarios {
        match parse_movingai_3dscen(text) {
            Err(Error::Parse { line: at, .. }) => assert_eq!(at, line, "{text:?}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn a_start_inside_a_blocked_voxel_is_a_typed_error() {
    let world = parse_movingai_3dmap("voxel 3 3 3\n1 1 1\n").unwrap();
    let mut flier = Pathfinder::new(Agent::flier(1), MoveCosts::octile()).unwrap();
    let error = flier
        .find_path(&world, IVec3::ONE, IVec3::ZERO, &SearchOptions::default())
        .unwrap_err();
    assert!(matches!(error, Error::InvalidStart { .. }), "{error}");
    let error = flier
        .find_path(
            &world,
            IVec3::ZERO,
            IVec3::splat(3),
            &SearchOptions::default(),
        )
        .unwrap_err();
    assert!(matches!(error, Error::InvalidGoal { .. }), "{error}");
}
