//! Regression tests for issue 14's hardening items: extreme values, huge inputs and hostile
//! files give a correct answer or a typed error, never a panic (these tests also run in debug
//! builds, with overflow checks on), a wrong answer or an endless run. The items on files and
//! messages are in `tests/hardening_files.rs`.

use std::time::Duration;

use voxnav::engine::{
    AnyOfGoal, AwayFromGoal, ColumnGoal, Heuristic, HeuristicKind, Pathfinder, move_between,
    neighbours,
};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::moves::floor_rise;
use voxnav::moves::fly::free_move;
use voxnav::search::heuristic::MAX_ESTIMATE;
use voxnav::terrain::{MAX_PAIRS, pick_pairs, surface_feet};
use voxnav::world::key::in_key_range;
use voxnav::world::{Bounds, InvalidFeet, body_fits, check_feet, is_valid_feet};
use voxnav::{
    Agent, Block, BlockGoal, ChunkedWorld, Error, Goal, IVec3, MoveCosts, Movement, RadiusGoal,
    SearchOptions, SearchStatus, VoxelWorld, check_path,
};

const MIN: i32 = i32::MIN;
const MAX: i32 = i32::MAX;
/// The largest difference of two `i32` coordinates.
const SPAN: u64 = u32::MAX as u64;

/// An 8 x 4 x 8 room with a floor at y = 0.
fn room() -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 8)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(7, 0, 7), Block::Solid)
        .unwrap();
    world
}

fn pathfinder() -> Pathfinder {
    Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap()
}

/// Every cell is passable and standable, out to the ends of `i32`, inside `bounds`.
struct Everywhere {
    bounds: Option<Bounds>,
}

impl VoxelWorld for Everywhere {
    fn is_passable(&self, p: IVec3) -> bool {
        self.bounds.is_none_or(|b| b.contains(p))
    }
    fn is_standable(&self, p: IVec3) -> bool {
        self.bounds.is_none_or(|b| b.contains(p))
    }
    fn bounds(&self) -> Option<Bounds> {
        self.bounds
    }
}

/// Solid below y = 0, air from y = 0 up, inside the whole `i32` box.
struct Plain;

impl VoxelWorld for Plain {
    fn is_passable(&self, p: IVec3) -> bool {
        p.y >= 0 && p.y < MAX
    }
    fn is_standable(&self, p: IVec3) -> bool {
        p.y < 0 && p.y > MIN
    }
    fn bounds(&self) -> Option<Bounds> {
        Some(Bounds::new(IVec3::splat(MIN), IVec3::splat(MAX)))
    }
}

/// The corners and edges of the `i32` range, where any unchecked `+ 1` or `- 1` overflows.
fn extreme_positions() -> Vec<IVec3> {
    let values = [MIN, MIN + 1, -1, 0, MAX - 1, MAX];
    let mut out = Vec::new();
    for x in values {
        for y in values {
            for z in [MIN, 0, MAX] {
                out.push(IVec3::new(x, y, z));
            }
        }
    }
    out
}

// Item 2: goals are exact for every value their types admit.

#[test]
fn away_from_u32_max_is_not_reached_at_the_start() {
    let world = room();
    let start = IVec3::new(1, 1, 1);
    for goal in [
        AwayFromGoal::new(start, u32::MAX),
        AwayFromGoal::horizontal(start, u32::MAX),
    ] {
        assert!(!goal.is_reached(start));
        let result = pathfinder()
            .search(&world, start, &goal, &SearchOptions::default())
            .unwrap();
        // Nothing in an 8-block room is 4 billion blocks away.
        assert_eq!(result.status, SearchStatus::Unreachable, "{goal:?}");
    }
    // Exactly at the distance counts as reached, even at the far ends of i32.
    let far = AwayFromGoal::horizontal(IVec3::new(MIN, 0, 0), u32::MAX);
    assert!(far.is_reached(IVec3::new(MAX, 0, 0)));
    assert!(!far.is_reached(IVec3::new(MAX - 1, 0, 0)));
}

#[test]
fn radius_u32_max_is_reached_at_the_start() {
    let world = room();
    let start = IVec3::new(1, 1, 1);
    let goal = RadiusGoal {
        center: IVec3::new(5, 1, 5),
        radius: u32::MAX,
    };
    assert!(goal.is_reached(start));
    let estimator = Heuristic::default().estimator(&Agent::default(), &MoveCosts::default());
    assert_eq!(goal.estimate(start, &estimator), 0);
    let result = pathfinder()
        .search(&world, start, &goal, &SearchOptions::default())
        .unwrap();
    assert_eq!(result.status, SearchStatus::Found);
    assert_eq!((result.path, result.cost), (vec![start], Some(0)));
    // The whole i32 box is within u32::MAX * sqrt 3 of its centre, but not within u32::MAX
    // of one corner seen from the other.
    let corner = RadiusGoal {
        center: IVec3::splat(MIN),
        radius: u32::MAX,
    };
    assert!(!corner.is_reached(IVec3::splat(MAX)));
    assert!(corner.is_reached(IVec3::new(MAX, MIN, MIN)));
}

#[test]
fn goal_estimates_are_exact_at_the_ends_of_i32() {
    let costs = MoveCosts::default();
    let estimator = Heuristic::default().estimator(&Agent::default(), &costs);
    let (low, high) = (IVec3::splat(MIN), IVec3::splat(MAX));
    // Octile: SPAN diagonal steps and SPAN blocks of descent (the goal is below).
    let down = SPAN * u64::from(costs.diagonal) + SPAN * u64::from(costs.descend);
    let up = SPAN * u64::from(costs.diagonal) + SPAN * u64::from(costs.ascend);
    assert_eq!(estimator.between(high, low), down);
    assert_eq!(estimator.between(low, high), up);
    assert_eq!(BlockGoal(low).estimate(high, &estimator), down);
    let column = ColumnGoal { x: MIN, z: MAX };
    assert_eq!(
        column.estimate(IVec3::new(MAX, 0, MIN), &estimator),
        SPAN * u64::from(costs.diagonal)
    );
    assert!(column.is_reached(IVec3::new(MIN, MAX, MAX)));
    // A radius shortens each axis: 10 blocks less on x, z and y.
    let radius = RadiusGoal {
        center: low,
        radius: 10,
    };
    assert_eq!(
        radius.estimate(high, &estimator),
        (SPAN - 10) * u64::from(costs.diagonal) + (SPAN - 10) * u64::from(costs.descend)
    );
    let any: AnyOfGoal<BlockGoal> = AnyOfGoal::new(vec![BlockGoal(low), BlockGoal(high)]);
    assert_eq!(any.estimate(high, &estimator), 0);
    assert_eq!(any.estimate(low, &estimator), 0);
    // Fleeing from one end of i32 to the other: the estimate stays a lower bound.
    let flee = AwayFromGoal::horizontal(IVec3::new(MIN, 0, 0), u32::MAX);
    let h = flee.estimate(IVec3::new(MIN, 0, 0), &estimator);
    let per_block = f64::from(costs.diagonal) / std::f64::consts::SQRT_2;
    assert!(h > 0 && (h as f64) <= SPAN as f64 * per_block, "{h}");
}

#[test]
fn every_estimate_stays_below_the_cap_for_any_weight_and_cost() {
    let costs = MoveCosts {
        straight: u32::MAX,
        diagonal: u32::MAX,
        ascend: u32::MAX,
        descend: u32::MAX,
        ..MoveCosts::default()
    };
    let (low, high) = (IVec3::splat(MIN), IVec3::splat(MAX));
    for kind in [
        HeuristicKind::Octile,
        HeuristicKind::Euclidean,
        HeuristicKind::Manhattan {
            height_weight: u32::MAX,
        },
    ] {
        for weight in [1.0, 1.5, 1e17, f64::MAX] {
            let heuristic = Heuristic::new(kind).with_weight(weight).unwrap();
            for agent in [Agent::default(), Agent::default().with_diagonals(false)] {
                let estimator = heuristic.estimator(&agent, &costs);
                assert_eq!(
                    estimator.between(low, high),
                    MAX_ESTIMATE,
                    "{kind:?} {weight}"
                );
            }
        }
    }
}

#[test]
fn a_huge_heuristic_weight_still_finds_a_route() {
    let world = room();
    let (start, goal) = (IVec3::new(1, 1, 1), IVec3::new(6, 1, 6));
    let optimal = pathfinder()
        .find_path(&world, start, goal, &SearchOptions::default())
        .unwrap()
        .cost
        .unwrap();
    for weight in [1e17, f64::MAX] {
        let heuristic = Heuristic::new(HeuristicKind::Octile)
            .with_weight(weight)
            .unwrap();
        let options = SearchOptions::default().with_heuristic(heuristic);
        let result = pathfinder()
            .find_path(&world, start, goal, &options)
            .unwrap();
        assert_eq!(result.status, SearchStatus::Found);
        assert!(result.cost.unwrap() >= optimal);
        let graph = NavGraph::compile(&world, &Agent::default()).unwrap();
        let mut search = GraphSearch::new(MoveCosts::default()).unwrap();
        let over_graph = search.find_path(&graph, start, goal, &options).unwrap();
        assert_eq!(over_graph.status, SearchStatus::Found);
        assert_eq!(
            check_path(
                &world,
                &Agent::default(),
                &MoveCosts::default(),
                &result.path
            )
            .cost,
            result.cost
        );
    }
}

// Item 4: "no time limit" works.

#[test]
fn duration_max_is_no_time_limit() {
    let world = room();
    let (start, goal) = (IVec3::new(1, 1, 1), IVec3::new(6, 1, 6));
    let options = SearchOptions::default().with_max_time(Duration::MAX);
    let result = pathfinder()
        .find_path(&world, start, goal, &options)
        .unwrap();
    assert_eq!(result.status, SearchStatus::Found);
    let graph = NavGraph::compile(&world, &Agent::default()).unwrap();
    let mut search = GraphSearch::new(MoveCosts::default()).unwrap();
    let over_graph = search.find_path(&graph, start, goal, &options).unwrap();
    assert_eq!(over_graph.cost, result.cost);
    let started = std::time::Instant::now();
    assert_eq!(options.deadline(started), None);
    let short = SearchOptions::default().with_max_time(Duration::from_secs(1));
    assert_eq!(
        short.deadline(started),
        Some(started + Duration::from_secs(1))
    );
}

// Item 5: bounds spanning the whole i32 range.

#[test]
fn bounds_spanning_i32_measure_exactly() {
    let wide = Bounds::new(IVec3::new(MIN, 0, 0), IVec3::new(MAX, 1, 2));
    assert_eq!(wide.volume(), 2 * SPAN);
    assert_eq!(wide.size(), IVec3::new(MAX, 1, 2));
    assert!(!wide.is_empty());
    let whole = Bounds::new(IVec3::splat(MIN), IVec3::splat(MAX));
    assert_eq!(whole.volume(), u64::MAX, "saturates: (2^32 - 1)^3 cells");
    assert!(Bounds::new(IVec3::splat(MAX), IVec3::splat(MIN)).is_empty());
    assert_eq!(
        Bounds::new(IVec3::splat(MAX), IVec3::splat(MIN)).volume(),
        0
    );
    let err = ChunkedWorld::with_bounds(whole).unwrap_err();
    assert!(matches!(err, Error::InvalidSetting(_)));
    assert!(err.to_string().contains("searchable range"), "{err}");
    let err = ChunkedWorld::with_bounds(Bounds::new(IVec3::ONE, IVec3::ONE)).unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
}

// Item 6: the public rule functions at the ends of i32.

#[test]
fn feet_checks_are_total_at_the_ends_of_i32() {
    let worlds: [&dyn VoxelWorld; 4] = [
        &Everywhere { bounds: None },
        &Everywhere {
            bounds: Some(Bounds::new(IVec3::splat(MIN), IVec3::splat(MAX))),
        },
        &Plain,
        &ChunkedWorld::new(),
    ];
    for world in worlds {
        for feet in extreme_positions() {
            for height in [0, 1, 2, 64, 1000, u32::MAX] {
                if in_key_range(feet) && height > 64 {
                    // Correct, but a body 2^32 cells tall in open air takes 2^32 look-ups.
                    continue;
                }
                let valid = is_valid_feet(world, feet, height);
                let checked = check_feet(world, feet, height);
                assert_eq!(valid, checked.is_ok(), "{feet} height {height}");
                if !in_key_range(feet) {
                    assert_eq!(checked, Err(InvalidFeet::OutOfKeyRange), "{feet}");
                }
            }
            // The body ends at i32::MAX: one cell more does not exist.
            let top = IVec3::new(feet.x, MAX, feet.z);
            assert!(!body_fits(world, top, 2));
        }
    }
    let open = Everywhere { bounds: None };
    assert!(body_fits(&open, IVec3::new(0, MAX, 0), 1));
    assert!(body_fits(&open, IVec3::new(0, MAX - 1, 0), 2));
    assert!(!body_fits(&open, IVec3::new(0, MAX - 1, 0), 3));
    assert!(!body_fits(&open, IVec3::new(0, 1 << 30, 0), u32::MAX));
    // A body that would reach past i32::MAX is outside every world.
    let tall = Everywhere {
        bounds: Some(Bounds::new(IVec3::ZERO, IVec3::new(1, 4, 1))),
    };
    // In a bounded world the body is measured against its height first (issue 26 item 15).
    assert_eq!(
        check_feet(&tall, IVec3::new(0, 1, 0), u32::MAX),
        Err(InvalidFeet::OutsideHeight { min_y: 0, max_y: 4 })
    );
}

#[test]
fn moves_are_total_at_the_ends_of_i32() {
    let costs = MoveCosts::default();
    let agents = [
        Agent::default(),
        Agent::default().with_max_drop(64).with_max_step_up(64),
        Agent::default().with_height(u32::MAX),
        Agent::default().with_max_drop(u32::MAX),
        Agent::default().with_max_step_up(u32::MAX),
    ];
    let worlds: [&dyn VoxelWorld; 3] = [&Everywhere { bounds: None }, &Plain, &ChunkedWorld::new()];
    let mut moves = Vec::new();
    for world in worlds {
        for agent in &agents {
            for feet in extreme_positions() {
                if in_key_range(feet) {
                    continue;
                }
                neighbours(world, agent, &costs, feet, &mut moves);
                assert!(moves.is_empty(), "{feet}: {moves:?}");
                for to in [IVec3::ZERO, IVec3::splat(MAX), IVec3::splat(MIN)] {
                    assert_eq!(move_between(world, agent, &costs, feet, to), None);
                    assert_eq!(move_between(world, agent, &costs, to, feet), None);
                }
                let path = [feet, IVec3::new(1, 1, 1), IVec3::splat(MIN)];
                let check = check_path(world, agent, &costs, &path);
                assert_eq!(check.first_broken, Some(0), "{feet}");
                assert_eq!(check.cost, None);
            }
        }
    }
}

#[test]
fn moves_at_the_edge_of_the_key_range_stay_inside_it() {
    // The key range ends at x = 2^25 - 1: from its last column no move leads east.
    let edge = (1 << 25) - 1;
    let world = Everywhere { bounds: None };
    let mut moves = Vec::new();
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    neighbours(&world, &agent, &costs, IVec3::new(edge, 0, 0), &mut moves);
    assert_eq!(moves.len(), 5, "{moves:?}");
    assert!(
        moves
            .iter()
            .all(|m| m.feet.x <= edge && is_valid_feet(&world, m.feet, 2))
    );
    neighbours(
        &world,
        &agent,
        &costs,
        IVec3::new(edge - 1, 0, 0),
        &mut moves,
    );
    assert_eq!(moves.len(), 8);
}

#[test]
fn unvalidated_costs_saturate_instead_of_overflowing() {
    // A one-block step: the climb costs more than u32 can hold, so the move costs u32::MAX.
    let mut world = room();
    world.set(IVec3::new(2, 1, 1), Block::Solid).unwrap();
    let costs = MoveCosts::default()
        .with_ascend(u32::MAX)
        .with_straight(u32::MAX);
    let mut moves = Vec::new();
    neighbours(
        &world,
        &Agent::default(),
        &costs,
        IVec3::new(1, 1, 1),
        &mut moves,
    );
    let up = moves
        .iter()
        .find(|m| m.feet == IVec3::new(2, 2, 1))
        .expect("the step up");
    assert_eq!(up.cost, u32::MAX);
    let path = [
        IVec3::new(1, 1, 1),
        IVec3::new(2, 2, 1),
        IVec3::new(3, 1, 1),
    ];
    let check = check_path(&world, &Agent::default(), &costs, &path);
    assert_eq!(check.first_broken, None, "{check:?}");
    assert_eq!(check.cost, Some(2 * u64::from(u32::MAX)));
}

#[test]
fn pick_pairs_accepts_any_count_and_range() {
    let world = room();
    let agent = Agent::default();
    // An empty range asks for nothing, whatever the count.
    assert!(pick_pairs(&world, &agent, 1, usize::MAX, 5.0..=1.0).is_empty());
    // A range far beyond i32: no pair fits, and none overflows.
    assert!(pick_pairs(&world, &agent, 1, 5, 0.0..=f32::MAX).len() <= 5);
    assert!(pick_pairs(&world, &agent, 1, 5, 1e12..=1e30).is_empty());
    // Bounds spanning all of i32.
    for (start, goal) in pick_pairs(&Plain, &agent, 3, 4, 0.0..=8.0) {
        assert!(is_valid_feet(&Plain, start, 2) && is_valid_feet(&Plain, goal, 2));
    }
    assert_eq!(
        surface_feet(&Plain, &agent, 5, -7),
        Some(IVec3::new(5, 0, -7))
    );
    assert_eq!(surface_feet(&Plain, &agent, MAX, 0), None);
    // At most MAX_PAIRS pairs (a 1-column room: every try lands on the same column).
    let mut column = ChunkedWorld::with_size(IVec3::new(1, 3, 1)).unwrap();
    column.set(IVec3::ZERO, Block::Solid).unwrap();
    let pairs = pick_pairs(&column, &agent, 1, MAX_PAIRS + 5, 0.0..=0.0);
    assert_eq!(pairs.len(), MAX_PAIRS);
}

#[test]
fn an_unbounded_world_reads_and_writes_at_the_ends_of_i32() {
    let mut world = ChunkedWorld::new();
    for p in extreme_positions() {
        world.set(p, Block::Solid).unwrap();
        assert_eq!(world.get(p), Some(Block::Solid), "{p}");
        assert!(world.is_standable(p) && !world.is_passable(p));
        let _ = world.terrain(p);
    }
    // The trait's default column readers: cells beyond the ends of i32 do not exist.
    let open = Everywhere { bounds: None };
    let top = open.column(0, 0, MAX - 1, 64);
    assert_eq!((top.passable, top.standable), (0b11, 0b11));
    let around = open.columns_around(MAX, MIN, 0, 1);
    assert_eq!(around.iter().filter(|c| c.passable == 1).count(), 4);
}

#[test]
fn fliers_and_floor_heights_are_total_at_the_ends_of_i32() {
    let costs = MoveCosts::default();
    let open = Everywhere { bounds: None };
    for movement in [Movement::Fly, Movement::Swim] {
        for agent in [
            Agent::default().with_movement(movement),
            Agent::default()
                .with_movement(movement)
                .with_height(u32::MAX),
        ] {
            for feet in extreme_positions() {
                if in_key_range(feet) {
                    continue;
                }
                assert!(!agent.is_valid_position(&open, feet), "{feet}");
                for direction in [IVec3::ONE, IVec3::NEG_ONE, IVec3::splat(MIN)] {
                    assert_eq!(free_move(&open, &agent, &costs, feet, direction), None);
                }
                assert_eq!(move_between(&open, &agent, &costs, feet, IVec3::ZERO), None);
                assert_eq!(
                    check_path(&open, &agent, &costs, &[feet]).first_broken,
                    Some(0)
                );
            }
        }
    }
    for (from, to) in [
        (IVec3::splat(MIN), IVec3::splat(MAX)),
        (IVec3::splat(MAX), IVec3::splat(MIN)),
    ] {
        let rise = floor_rise(&open, from, to);
        assert_eq!(
            rise,
            16 * (i64::from(to.y) - i64::from(from.y)),
            "{from} -> {to}"
        );
    }
}

/// `ChunkedWorld`'s column readers at the ends of i32 (issue 14 item 6): a window reaching
/// past `i32::MAX` ends there, a column beyond the ends has no cells, and nothing overflows in
/// a debug build.
#[test]
fn chunked_column_reads_at_the_ends_of_i32_do_not_overflow() {
    use voxnav::{ChunkedWorld, VoxelWorld};
    let mut world = ChunkedWorld::new();
    let top = IVec3::new(i32::MAX, i32::MAX, i32::MAX);
    world.set(top, Block::Solid).unwrap();
    let column = world.column(i32::MAX, i32::MAX, i32::MAX - 3, 64);
    // Cells MAX-3 ..= MAX exist: three of air, then the solid one; none above.
    assert_eq!(column.passable, 0b0111);
    assert_eq!(column.standable, 0b1000);
    for (x, z) in [
        (i32::MAX, i32::MAX),
        (i32::MIN, i32::MIN),
        (i32::MAX, i32::MIN),
    ] {
        for y0 in [i32::MIN, -5, i32::MAX - 63, i32::MAX] {
            let around = world.columns_around(x, z, y0, 64);
            for (i, &(dx, dz)) in voxnav::world::AROUND.iter().enumerate() {
                match (x.checked_add(dx), z.checked_add(dz)) {
                    (Some(cx), Some(cz)) => assert_eq!(around[i], world.column(cx, cz, y0, 64)),
                    _ => assert_eq!(around[i], voxnav::world::ColumnBits::default()),
                }
            }
        }
    }
}
