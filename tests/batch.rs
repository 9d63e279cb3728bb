//! Batch routing: the same answers as one search at a time, in the queries' order.

mod support;

use support::oracle::all_feet;
use support::rng::Rng;
use support::worlds::hills;
use voxnav::engine::{BatchRouter, IndexedRouter, Pathfinder};
use voxnav::{
    Agent, ChunkedWorld, Error, IVec3, MoveCosts, RadiusGoal, RouteQuery, SearchOptions,
    SearchResult, SearchStatus,
};

fn queries(world: &ChunkedWorld, agent: &Agent, seed: u64, count: usize) -> Vec<RouteQuery> {
    let feet = all_feet(world, agent);
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let start = rng.pick(&feet);
            let goal = rng.pick(&feet);
            RouteQuery::block(start, goal)
        })
        .collect()
}

/// Everything but the elapsed time.
fn same_answer(a: &SearchResult, b: &SearchResult) -> bool {
    a.status == b.status
        && a.path == b.path
        && a.cost == b.cost
        && a.stats.expanded == b.stats.expanded
        && a.stats.generated == b.stats.generated
}

#[test]
fn sequential_batches_answer_like_single_searches() -> voxnav::Result<()> {
    let agent = Agent::default();
    let world = hills(11, 16, 12);
    let batch = queries(&world, &agent, 1, 300);
    let router = BatchRouter::new(agent, MoveCosts::default())?;
    let results = router.route_many_sequential(&world, &batch);
    assert_eq!(results.len(), batch.len());
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default())?;
    let mut statuses = std::collections::HashSet::new();
    for (query, result) in batch.iter().zip(&results) {
        let alone =
            pathfinder.find_path(&world, query.start, query.goal.0, &SearchOptions::default())?;
        let result = result.as_ref().map_err(ToString::to_string).expect("valid");
        assert!(same_answer(result, &alone), "{query:?}");
        statuses.insert(result.status);
    }
    assert!(statuses.contains(&SearchStatus::Found));
    assert!(statuses.contains(&SearchStatus::Unreachable));
    Ok(())
}

#[cfg(feature = "rayon")]
#[test]
fn parallel_batches_match_sequential_ones_in_order_on_two_threads() -> voxnav::Result<()> {
    let agent = Agent::default();
    let world = hills(12, 16, 12);
    let batch = queries(&world, &agent, 2, 400);
    let mut router = BatchRouter::new(agent, MoveCosts::default())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    for with_index in [false, true] {
        if with_index {
            router.build_index(&world)?;
        }
        let sequential = router.route_many_sequential(&world, &batch);
        let parallel = pool.install(|| router.route_many(&world, &batch));
        // A second parallel run reuses the pooled pathfinders.
        let again = pool.install(|| router.route_many(&world, &batch));
        for ((s, p), a) in sequential.iter().zip(&parallel).zip(&again) {
            let (s, p, a) = (s.as_ref(), p.as_ref(), a.as_ref());
            let (s, p, a) = (s.expect("valid"), p.expect("valid"), a.expect("valid"));
            assert!(same_answer(s, p) && same_answer(s, a));
        }
    }
    Ok(())
}

#[test]
fn the_index_answers_unreachable_queries_without_expanding() -> voxnav::Result<()> {
    let agent = Agent::default();
    let world = hills(13, 16, 12);
    let batch = queries(&world, &agent, 3, 300);
    let mut router = BatchRouter::new(agent, MoveCosts::default())?;
    let plain = router.route_many_sequential(&world, &batch);
    router.build_index(&world)?;
    let indexed = router.route_many_sequential(&world, &batch);
    let mut saved = 0;
    for (p, i) in plain.iter().zip(&indexed) {
        let (p, i) = (p.as_ref().expect("valid"), i.as_ref().expect("valid"));
        assert_eq!(p.status, i.status);
        assert_eq!(p.cost, i.cost);
        if i.stats.expanded < p.stats.expanded {
            assert_eq!(i.stats.expanded, 0);
            assert_eq!(i.status, SearchStatus::Unreachable);
            saved += p.stats.expanded;
        }
    }
    assert!(saved > 0, "some goals lie in other regions");
    Ok(())
}

#[test]
fn a_bad_query_fails_in_its_place_and_the_rest_are_answered() -> voxnav::Result<()> {
    let agent = Agent::default();
    let world = hills(14, 8, 8);
    let mut batch = queries(&world, &agent, 4, 5);
    batch[2].start = IVec3::new(3, 8, 3); // in mid-air at the top of the world
    let mut router = BatchRouter::new(agent, MoveCosts::default())?;
    router.build_index(&world)?;
    let results = router.route_many_sequential(&world, &batch);
    assert!(matches!(results[2], Err(Error::InvalidStart { .. })));
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 4);
    Ok(())
}

#[test]
fn batches_take_any_goal_and_use_their_options() -> voxnav::Result<()> {
    let agent = Agent::default();
    let world = hills(15, 12, 12);
    let feet = all_feet(&world, &agent);
    let batch: Vec<RouteQuery<RadiusGoal>> = feet
        .iter()
        .step_by(9)
        .map(|&start| {
            RouteQuery::new(
                start,
                RadiusGoal {
                    center: IVec3::new(11, 1, 11),
                    radius: 3,
                },
            )
        })
        .collect();
    let router = BatchRouter::new(agent, MoveCosts::default())?
        .with_options(SearchOptions::default().with_max_nodes(3));
    assert_eq!(router.options().max_nodes, Some(3));
    for result in router.route_many_sequential(&world, &batch) {
        let result = result?;
        assert!(result.stats.expanded <= 3);
        if result.status == SearchStatus::Found {
            let end = result.path.last().copied().expect("a route");
            assert!((end - IVec3::new(11, 1, 11)).as_i64vec3().length_squared() <= 9);
        }
    }
    Ok(())
}

#[test]
fn routers_and_indexes_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<BatchRouter>();
    shareable::<voxnav::engine::ReachIndex>();
    shareable::<ChunkedWorld>();
    shareable::<voxnav::engine::AnyOfGoal>();
}

/// Issue 14: a batch without an index needs no `VersionedWorld`; a world that only implements
/// `VoxelWorld` (here behind `&dyn`) gets the same answers as single searches.
#[test]
fn a_world_without_versions_is_searched_query_by_query() -> voxnav::Result<()> {
    let agent = Agent::default();
    let world = hills(14, 16, 12);
    let batch = queries(&world, &agent, 4, 100);
    let router = BatchRouter::new(agent, MoveCosts::default())?;
    let plain: &(dyn voxnav::VoxelWorld + Sync) = &world;
    let results = router.search_many_sequential(plain, &batch);
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default())?;
    for (query, result) in batch.iter().zip(&results) {
        let alone =
            pathfinder.find_path(&world, query.start, query.goal.0, &SearchOptions::default())?;
        let result = result.as_ref().map_err(ToString::to_string).expect("valid");
        assert!(same_answer(result, &alone), "{query:?}");
    }
    #[cfg(feature = "rayon")]
    {
        let parallel = router.search_many(plain, &batch);
        for (p, s) in parallel.iter().zip(&results) {
            let (p, s) = (p.as_ref().expect("valid"), s.as_ref().expect("valid"));
            assert!(same_answer(p, s));
        }
    }
    Ok(())
}

/// With a walk graph, a batch runs A* over the graph: the same costs and statuses as searches
/// on the world, before and after block changes brought in with `apply_changes`; a graph
/// that does not describe the world (changed behind its back) is not used.
#[test]
fn over_the_graph_costs_are_those_of_searches_on_the_world() -> voxnav::Result<()> {
    let agent = Agent::default();
    let mut world = hills(15, 16, 12);
    let batch = queries(&world, &agent, 5, 200);
    let mut router = BatchRouter::new(agent, MoveCosts::default())?;
    router.build_index(&world)?;
    router.build_graph(&world)?;
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default())?;
    let check = |router: &BatchRouter, world: &ChunkedWorld, pathfinder: &mut Pathfinder| {
        for (query, result) in batch
            .iter()
            .zip(router.route_many_sequential(world, &batch))
        {
            let alone =
                pathfinder.find_path(world, query.start, query.goal.0, &SearchOptions::default());
            match (result, alone) {
                (Ok(result), Ok(alone)) => {
                    assert_eq!(result.status, alone.status, "{query:?}");
                    assert_eq!(result.cost, alone.cost, "{query:?}");
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("{query:?}: {a:?} against {b:?}"),
            }
        }
    };
    check(&router, &world, &mut pathfinder);
    world.track_changes(true);
    let mut rng = Rng::new(15);
    for _ in 0..30 {
        let cell = IVec3::new(rng.coord(16), 1 + rng.coord(5), rng.coord(12));
        world.set(cell, voxnav::Block::Solid)?;
    }
    // Changed behind the graph's back: not used, the world is searched.
    assert!(router.graph().is_some());
    check(&router, &world, &mut pathfinder);
    let changes = world.take_changes();
    assert!(router.apply_changes(&world, &changes)?);
    assert!(router.index().is_some_and(|index| index.is_current(&world)));
    check(&router, &world, &mut pathfinder);
    Ok(())
}
