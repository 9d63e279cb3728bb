//! Fliers and swimmers on side views a person can check by eye (no floor needed, no cut
//! edges, head room, water only for swimmers), and the modes with goals, budgets, errors,
//! batches and the engines built on the walking rules. Split from `tests/fly.rs`, which holds
//! the property tests against an exhaustive Dijkstra.

use voxnav::batch::{BatchRouter, RouteQuery};
use voxnav::engine::IndexedRouter;
use voxnav::engine::{DStarLite, Pathfinder, ReachIndex};
use voxnav::world::InvalidFeet;
use voxnav::{
    Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, RadiusGoal, SearchOptions, SearchResult,
    SearchStatus, VoxelWorld, check_path,
};

/// A bounded world of `size` cells of air with each box `(low, high, block)` (corners
/// inclusive) filled in turn.
fn boxes(size: IVec3, fills: &[(IVec3, IVec3, Block)]) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(size).unwrap();
    for &(low, high, block) in fills {
        world.fill(low, high, block).unwrap();
    }
    world
}

/// The search from `start` to `goal` with default options.
fn route<W: VoxelWorld>(
    pathfinder: &mut Pathfinder,
    world: &W,
    start: IVec3,
    goal: IVec3,
) -> voxnav::Result<SearchResult> {
    pathfinder.find_path(world, start, goal, &SearchOptions::default())
}

/// A 5 x 5 x 5 box of air with a solid wall at x = 2 but for one hole at (2, 4, 4).
fn walled() -> ChunkedWorld {
    let hole = IVec3::new(2, 4, 4);
    boxes(
        IVec3::splat(5),
        &[
            (IVec3::new(2, 0, 0), IVec3::new(2, 4, 4), Block::Solid),
            (hole, hole, Block::Air),
        ],
    )
}

#[test]
fn a_flier_needs_no_floor_and_never_cuts_an_edge() {
    let world = walled();
    let mut flier = Pathfinder::new(Agent::flier(1), MoveCosts::default()).unwrap();
    let flown = route(&mut flier, &world, IVec3::new(0, 0, 0), IVec3::new(4, 0, 0)).unwrap();
    assert_eq!(flown.status, SearchStatus::Found);
    // Through the hole: the hole's neighbours in the wall are solid, so the route enters and
    // leaves it straight along x.
    let hole = flown
        .path
        .iter()
        .position(|&p| p == IVec3::new(2, 4, 4))
        .unwrap();
    assert_eq!(flown.path[hole - 1], IVec3::new(1, 4, 4));
    assert_eq!(flown.path[hole + 1], IVec3::new(3, 4, 4));
    // A walker cannot even start in mid-air.
    let mut walker = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    let error = route(
        &mut walker,
        &world,
        IVec3::new(0, 2, 0),
        IVec3::new(0, 2, 1),
    )
    .unwrap_err();
    assert!(matches!(
        error,
        Error::InvalidStart {
            reason: InvalidFeet::NoFloor { .. },
            ..
        }
    ));
}

#[test]
fn a_tall_flier_needs_head_room_along_the_whole_move() {
    // A 3 x 4 x 1 slot: a flier 2 tall at (0, 0, 0) moving up-right to (1, 1, 0) sweeps
    // (0..=1, 0..=2): block (0, 2, 0) and the diagonal is gone, the straight route stays.
    let mut world = ChunkedWorld::with_size(IVec3::new(3, 4, 1)).unwrap();
    let agent = Agent::flier(2);
    let mut flier = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    let (start, goal) = (IVec3::ZERO, IVec3::new(1, 1, 0));
    let open = route(&mut flier, &world, start, goal).unwrap();
    assert_eq!(open.cost, Some(14));
    world.set(IVec3::new(0, 2, 0), Block::Solid).unwrap();
    let blocked = route(&mut flier, &world, start, goal).unwrap();
    assert_eq!(blocked.cost, Some(20), "{:?}", blocked.path);
}

#[test]
fn a_swimmer_stays_in_water() {
    // Air everywhere but a water channel along z = 0 and a second one along z = 2, joined by
    // water at x = 4 only.
    let world = boxes(
        IVec3::new(5, 1, 3),
        &[
            (IVec3::new(0, 0, 0), IVec3::new(4, 0, 0), Block::Water),
            (IVec3::new(0, 0, 2), IVec3::new(4, 0, 2), Block::Water),
            (IVec3::new(4, 0, 1), IVec3::new(4, 0, 1), Block::Water),
        ],
    );
    let (start, goal) = (IVec3::new(0, 0, 0), IVec3::new(0, 0, 2));
    let mut swimmer = Pathfinder::new(Agent::swimmer(1), MoveCosts::default()).unwrap();
    let swum = route(&mut swimmer, &world, start, goal).unwrap();
    assert_eq!(swum.cost, Some(4 * 10 + 2 * 10 + 4 * 10));
    let mut flier = Pathfinder::new(Agent::flier(1), MoveCosts::default()).unwrap();
    let flown = route(&mut flier, &world, start, goal).unwrap();
    assert_eq!(flown.cost, Some(20));
    let error = route(&mut swimmer, &world, start, IVec3::new(0, 0, 1)).unwrap_err();
    assert!(
        matches!(error, Error::InvalidGoal { reason: InvalidFeet::NotInWater { cell }, .. } if cell == IVec3::new(0, 0, 1)),
        "{error}"
    );
}

#[test]
fn goals_budgets_partial_routes_and_unbounded_worlds_work_for_fliers() {
    let world = walled();
    let mut flier = Pathfinder::new(Agent::flier(1), MoveCosts::default()).unwrap();
    let start = IVec3::new(0, 0, 0);
    let near = flier
        .search(
            &world,
            start,
            &RadiusGoal {
                center: IVec3::new(4, 0, 0),
                radius: 1,
            },
            &SearchOptions::default(),
        )
        .unwrap();
    assert_eq!(near.status, SearchStatus::Found);
    assert!((near.path.last().unwrap() - IVec3::new(4, 0, 0)).length_squared() <= 1);

    let partial = flier
        .find_path(
            &world,
            start,
            IVec3::new(4, 0, 0),
            &SearchOptions::default().with_max_nodes(5),
        )
        .unwrap();
    assert_eq!(partial.status, SearchStatus::Partial);
    assert_eq!(partial.stats.expanded, 5);
    assert!(check_path(&world, flier.agent(), flier.costs(), &partial.path).is_legal());

    // An unbounded world of air with one solid cell: the budget ends the search.
    let mut open_sky = ChunkedWorld::new();
    open_sky.set(IVec3::new(3, 0, 0), Block::Solid).unwrap();
    let far = flier
        .find_path(
            &open_sky,
            IVec3::ZERO,
            IVec3::new(30, 5, -7),
            &SearchOptions::default().with_max_nodes(10_000),
        )
        .unwrap();
    assert_eq!(far.status, SearchStatus::Found);
    assert_eq!(far.cost, Some(5 * 17 + 2 * 14 + 23 * 10));
    assert!(matches!(
        flier.find_path(
            &open_sky,
            IVec3::ZERO,
            IVec3::new(3, 0, 0),
            &SearchOptions::default().with_max_nodes(10)
        ),
        Err(Error::InvalidGoal {
            reason: InvalidFeet::NoHeadRoom { .. },
            ..
        })
    ));
    assert!(matches!(
        route(&mut flier, &open_sky, IVec3::ZERO, IVec3::X),
        Err(Error::Unbounded)
    ));
}

#[test]
fn one_batch_mixes_walkers_fliers_and_swimmers() {
    let world = boxes(
        IVec3::new(8, 6, 8),
        &[
            (IVec3::new(0, 0, 0), IVec3::new(7, 0, 7), Block::Solid),
            (IVec3::new(4, 1, 0), IVec3::new(4, 5, 6), Block::Solid),
            (IVec3::new(0, 1, 0), IVec3::new(2, 3, 2), Block::Water),
        ],
    );
    let costs = MoveCosts::default();
    let mut router = BatchRouter::new(Agent::default(), costs).unwrap();
    router.build_index(&world).unwrap();
    let queries = [
        RouteQuery::block(IVec3::new(0, 1, 4), IVec3::new(7, 1, 4)),
        RouteQuery::block(IVec3::new(0, 4, 4), IVec3::new(7, 4, 4)).with_agent(Agent::flier(1)),
        RouteQuery::block(IVec3::new(0, 1, 0), IVec3::new(2, 3, 2)).with_agent(Agent::swimmer(1)),
        RouteQuery::block(IVec3::new(0, 1, 0), IVec3::new(0, 5, 0)).with_agent(Agent::swimmer(1)),
    ];
    let results = router.route_many_sequential(&world, &queries);
    for (query, result) in queries.iter().zip(&results) {
        let agent = query.agent.unwrap_or_default();
        let mut alone = Pathfinder::new(agent, costs).unwrap();
        let alone = route(&mut alone, &world, query.start, query.goal.0);
        match (result, alone) {
            (Ok(batch), Ok(alone)) => {
                assert_eq!(batch.cost, alone.cost, "{query:?}");
                assert_eq!(batch.status, SearchStatus::Found, "{query:?}");
            }
            (Err(batch), Err(alone)) => assert_eq!(batch.to_string(), alone.to_string()),
            (batch, alone) => panic!("{query:?}: batch {batch:?}, alone {alone:?}"),
        }
    }
    assert!(matches!(
        results[3],
        Err(Error::InvalidGoal {
            reason: InvalidFeet::NotInWater { .. },
            ..
        })
    ));
    #[cfg(feature = "rayon")]
    {
        let parallel = router.route_many(&world, &queries);
        for (a, b) in parallel.iter().zip(&results) {
            assert_eq!(
                a.as_ref().ok().map(|r| r.cost),
                b.as_ref().ok().map(|r| r.cost)
            );
        }
    }
}

#[test]
fn engines_built_on_the_walking_rules_refuse_fliers() {
    let world = ChunkedWorld::with_size(IVec3::splat(4)).unwrap();
    assert!(matches!(
        ReachIndex::build(&world, &Agent::flier(1)),
        Err(Error::InvalidSetting(_))
    ));
    assert!(matches!(
        voxnav::engine::NavGraph::compile(&world, &Agent::flier(2)),
        Err(Error::InvalidSetting(_))
    ));
    assert!(matches!(
        DStarLite::new(Agent::swimmer(1), MoveCosts::default()),
        Err(Error::InvalidSetting(_))
    ));
    assert!(world.is_passable(IVec3::ZERO));
}
