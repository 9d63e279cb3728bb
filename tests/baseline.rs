//! The naive 26-neighbour baseline finds optimal routes of its own graph: checked against the
//! `pathfinding` crate's Dijkstra on many small random worlds.

mod support;

use glam::IVec3;
use pathfinding::prelude::dijkstra_all;
use support::rng::Rng;
use support::worlds::random_solids;
#[allow(dead_code, reason = "each test uses part of the baseline")]
#[path = "../examples/support/src/baseline.rs"]
mod baseline;
use voxnav::{Block, ChunkedWorld, Error, SearchStatus, VoxelWorld};

/// The 26-neighbour graph written out independently of the baseline: every passable cell
/// around `cell`, a step costing 10, 14 or 17 for one, two or three changed axes.
fn reference_neighbours(world: &ChunkedWorld, cell: IVec3) -> Vec<(IVec3, u64)> {
    let mut out = Vec::new();
    for dx in -1..=1 {
        for dy in -1..=1 {
            for dz in -1..=1 {
                let changed = [dx, dy, dz].iter().filter(|&&d| d != 0).count();
                let next = cell + IVec3::new(dx, dy, dz);
                if changed > 0 && world.is_passable(next) {
                    out.push((next, [0, 10, 14, 17][changed]));
                }
            }
        }
    }
    out
}

/// Checks that `path` is a chain of 26-neighbour steps through passable cells from `start`
/// to `end` whose costs add up to `cost`.
fn assert_valid_route(world: &ChunkedWorld, path: &[IVec3], start: IVec3, end: IVec3, cost: u64) {
    assert_eq!(path.first(), Some(&start));
    assert_eq!(path.last(), Some(&end));
    let mut total = 0;
    for pair in path.windows(2) {
        let step = reference_neighbours(world, pair[0])
            .into_iter()
            .find(|&(next, _)| next == pair[1]);
        let Some((_, step_cost)) = step else {
            panic!("{} -> {} is not a 26-neighbour step", pair[0], pair[1]);
        };
        total += step_cost;
    }
    assert_eq!(total, cost, "route cost does not match the reported cost");
}

#[test]
fn matches_dijkstra_on_random_small_worlds() {
    let mut rng = Rng::new(0x5eed_1234_abcd_0001);
    let mut found = 0;
    let mut unreachable = 0;
    for round in 0..120 {
        let size = IVec3::new(
            3 + rng.below(6) as i32,
            2 + rng.below(5) as i32,
            3 + rng.below(6) as i32,
        );
        // From open rooms to worlds cut into pockets, so both outcomes occur.
        let percent = [15, 60, 75, 85][round % 4];
        let world = random_solids(&mut rng, size, percent, percent);
        let open: Vec<IVec3> = (0..size.x)
            .flat_map(|x| (0..size.y).flat_map(move |y| (0..size.z).map(move |z| (x, y, z))))
            .map(|(x, y, z)| IVec3::new(x, y, z))
            .filter(|&cell| world.is_passable(cell))
            .collect();
        if open.is_empty() {
            continue;
        }
        let start = rng.pick(&open);
        let truth = dijkstra_all(&start, |&cell| reference_neighbours(&world, cell));
        for _ in 0..8 {
            let goal = rng.pick(&open);
            let result = baseline::find_path(&world, start, goal, None).expect("valid query");
            let expected = if goal == start {
                Some(0)
            } else {
                truth.get(&goal).map(|&(_, cost)| cost)
            };
            assert_eq!(
                result.cost, expected,
                "round {round}: {start} -> {goal} in a {size} world"
            );
            match expected {
                Some(cost) => {
                    found += 1;
                    assert_eq!(result.status, SearchStatus::Found);
                    assert_valid_route(&world, &result.path, start, goal, cost);
                }
                None => {
                    unreachable += 1;
                    assert_eq!(result.status, SearchStatus::Unreachable);
                    assert!(result.path.is_empty());
                    // Everything reachable was expanded: the start and each cell Dijkstra saw.
                    assert_eq!(result.stats.expanded, truth.len() as u64 + 1);
                }
            }
        }
    }
    assert!(
        found > 100 && unreachable > 20,
        "found {found}, unreachable {unreachable}"
    );
}

#[test]
fn heuristic_is_the_exact_distance_of_an_empty_world() {
    let size = IVec3::new(7, 6, 8);
    let world = ChunkedWorld::with_size(size).expect("small world");
    let start = IVec3::new(1, 2, 3);
    let truth = dijkstra_all(&start, |&cell| reference_neighbours(&world, cell));
    for (cell, (_, cost)) in truth {
        assert_eq!(baseline::heuristic(start, cell), cost, "{start} -> {cell}");
        assert_eq!(baseline::heuristic(cell, start), cost, "{cell} -> {start}");
    }
}

#[test]
fn budget_gives_a_partial_route_towards_the_goal() {
    // A wall at x = 10 with no gap, in a world open everywhere else.
    let mut world = ChunkedWorld::with_size(IVec3::new(20, 6, 6)).expect("small world");
    world
        .fill(IVec3::new(10, 0, 0), IVec3::new(10, 5, 5), Block::Solid)
        .expect("inside");
    let start = IVec3::new(0, 2, 2);
    let goal = IVec3::new(19, 2, 2);
    let partial = baseline::find_path(&world, start, goal, Some(30)).expect("valid query");
    assert_eq!(partial.status, SearchStatus::Partial);
    assert_eq!(partial.stats.expanded, 30);
    let end = *partial.path.last().expect("a partial route has an end");
    assert!(end.x > start.x, "the partial route heads for the goal");
    assert_valid_route(
        &world,
        &partial.path,
        start,
        end,
        partial.cost.expect("cost"),
    );

    let full = baseline::find_path(&world, start, goal, None).expect("valid query");
    assert_eq!(full.status, SearchStatus::Unreachable);
    // The whole left side: 10 columns of 6 x 6 cells.
    assert_eq!(full.stats.expanded, 10 * 6 * 6);
}

#[test]
fn bad_queries_are_errors() {
    let mut world = ChunkedWorld::with_size(IVec3::new(4, 4, 4)).expect("small world");
    world.set(IVec3::ONE, Block::Solid).expect("inside");
    let open = IVec3::ZERO;
    assert!(matches!(
        baseline::find_path(&world, IVec3::ONE, open, None),
        Err(Error::InvalidStart { .. })
    ));
    assert!(matches!(
        baseline::find_path(&world, open, IVec3::new(4, 0, 0), None),
        Err(Error::InvalidGoal { .. })
    ));
    assert!(matches!(
        baseline::find_path(&world, open, IVec3::new(3, 3, 3), Some(0)),
        Err(Error::ZeroBudget)
    ));
    let unbounded = ChunkedWorld::new();
    assert!(matches!(
        baseline::find_path(&unbounded, open, IVec3::new(3, 3, 3), None),
        Err(Error::Unbounded)
    ));
    let found = baseline::find_path(&unbounded, open, IVec3::new(30, -3, 3), Some(10_000))
        .expect("a budget makes an unbounded world searchable");
    assert_eq!(
        found.cost,
        Some(baseline::heuristic(open, IVec3::new(30, -3, 3)))
    );
}
