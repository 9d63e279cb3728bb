//! Every error: bad input is a typed error with a useful message, never a panic.

use std::time::Duration;

use voxnav::engine::{Heuristic, HeuristicKind, Pathfinder};
use voxnav::world::{InvalidFeet, load_text_world};
use voxnav::{Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, SearchOptions};

fn room() -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 8)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(7, 0, 7), Block::Solid)
        .unwrap();
    world.set(IVec3::new(4, 2, 4), Block::Solid).unwrap();
    world
}

fn pathfinder() -> Pathfinder {
    Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap()
}

#[test]
fn invalid_start_says_why() {
    let world = room();
    let goal = IVec3::new(1, 1, 1);
    let options = SearchOptions::default();
    let cases = [
        (IVec3::new(2, 2, 2), "no floor"),
        (IVec3::new(4, 1, 4), "does not fit"),
        (IVec3::new(9, 1, 1), "outside the world"),
        (IVec3::new(1 << 26, 1, 1), "outside the searchable range"),
    ];
    for (start, words) in cases {
        let err = pathfinder()
            .find_path(&world, start, goal, &options)
            .unwrap_err();
        assert!(
            matches!(err, Error::InvalidStart { pos, .. } if pos == start),
            "{err:?}"
        );
        let message = err.to_string();
        assert!(
            message.contains("start") && message.contains(words),
            "{message}"
        );
    }
    let err = pathfinder()
        .find_path(&world, IVec3::new(4, 1, 4), goal, &options)
        .unwrap_err();
    assert!(matches!(
        err,
        Error::InvalidStart { reason: InvalidFeet::NoHeadRoom { blocked }, .. } if blocked == IVec3::new(4, 2, 4)
    ));
}

#[test]
fn invalid_goal_says_why() {
    let world = room();
    let err = pathfinder()
        .find_path(
            &world,
            IVec3::new(1, 1, 1),
            IVec3::new(1, 0, 1),
            &SearchOptions::default(),
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidGoal {
                reason: InvalidFeet::NoHeadRoom { .. },
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("goal 1,0,1"), "{err}");
}

#[test]
fn empty_budgets_are_errors() {
    let world = room();
    let (a, b) = (IVec3::new(1, 1, 1), IVec3::new(6, 1, 6));
    let err = pathfinder()
        .find_path(&world, a, b, &SearchOptions::default().with_max_nodes(0))
        .unwrap_err();
    assert!(matches!(err, Error::ZeroBudget));
    let err = pathfinder()
        .find_path(
            &world,
            a,
            b,
            &SearchOptions::default().with_max_time(Duration::ZERO),
        )
        .unwrap_err();
    assert!(matches!(err, Error::ZeroTimeBudget));
}

#[test]
fn unbounded_world_without_a_budget_is_an_error() {
    let mut world = ChunkedWorld::new();
    world
        .fill(IVec3::ZERO, IVec3::new(3, 0, 3), Block::Solid)
        .unwrap();
    let err = pathfinder()
        .find_path(
            &world,
            IVec3::new(0, 1, 0),
            IVec3::new(3, 1, 3),
            &SearchOptions::default(),
        )
        .unwrap_err();
    assert!(matches!(err, Error::Unbounded), "{err:?}");
}

#[test]
fn bad_settings_are_errors() {
    for agent in [
        Agent::default().with_height(0),
        Agent::default().with_max_drop(1000),
        Agent::default().with_max_step_up(65),
    ] {
        assert!(
            matches!(
                Pathfinder::new(agent, MoveCosts::default()),
                Err(Error::InvalidSetting(_))
            ),
            "{agent:?}"
        );
    }
    for costs in [
        MoveCosts::default().with_straight(0),
        MoveCosts::default().with_diagonal(0),
        MoveCosts::default().with_ascend(u32::MAX / 4),
    ] {
        assert!(
            matches!(
                Pathfinder::new(Agent::default(), costs),
                Err(Error::InvalidSetting(_))
            ),
            "{costs:?}"
        );
    }
    for weight in [0.5, f64::NAN, f64::INFINITY] {
        assert!(
            Heuristic::new(HeuristicKind::Octile)
                .with_weight(weight)
                .is_err()
        );
    }
}

#[test]
fn writing_outside_a_bounded_world_is_an_error() {
    let mut world = room();
    let err = world.set(IVec3::new(8, 0, 0), Block::Solid).unwrap_err();
    assert!(matches!(err, Error::OutOfWorld { .. }));
    assert!(err.to_string().contains("outside the world"), "{err}");
}

#[test]
fn unreadable_and_malformed_files_are_errors() {
    let err = load_text_world("/nonexistent/voxnav/world.txt").unwrap_err();
    assert!(matches!(err, Error::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/voxnav/world.txt"));
    let dir = std::env::temp_dir().join(format!("voxnav-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, "voxnav-world 1\nsize 2 1 1\nlayer 0\n#?\n").unwrap();
    let err = load_text_world(&path).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Parse {
                line: 4,
                column: 2,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "line 4, column 2: unknown block `?` (expected `#` solid, `.` air, `~` water, `L` lava, `=` slow floor or `H` ladder)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
