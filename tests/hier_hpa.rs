//! The inexact abstraction (`voxnav::hier::Abstraction`): legal routes within its measured
//! bound of the optimum, exact "unreachable" answers, local updates equal to a fresh build.
//! (Split from `tests/hier.rs`, which tests the exact hierarchy.)

mod support;

use support::Outcomes;
use support::fuzz_engines::hier_edges;
use support::hier_worlds::{random_costs, random_world_across, rooms};
use support::oracle::all_feet;
use support::rng::Rng;
use support::worlds::{random_agent, random_block};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::hier::{AbstractSearch, Abstraction, Hierarchy};
use voxnav::{
    Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, SearchOptions, SearchStatus, check_path,
};

/// Checks one answer of the abstraction against exhaustive Dijkstra: found exactly when a
/// route exists, a legal route under both path checks that costs what it reports, at least the
/// optimum; returns `(cost, optimum)` of a found route.
fn check_near_answer(
    world: &ChunkedWorld,
    agent: &Agent,
    costs: &MoveCosts,
    (start, goal): (IVec3, IVec3),
    result: &voxnav::SearchResult,
    context: &str,
) -> Option<(u64, u64)> {
    let best = support::oracle::dijkstra_cost(world, agent, costs, start, goal);
    let settings = (agent, costs);
    support::fuzz_engines::check_near(world, settings, (start, goal), best, result, context);
    Some((result.cost?, best?))
}

/// A world with the agent and costs its queries are checked for.
struct Checked<'a> {
    world: &'a ChunkedWorld,
    agent: &'a Agent,
    costs: &'a MoveCosts,
}

impl Checked<'_> {
    /// `count` queries between random positions of `feet` through the abstraction, each
    /// checked by [`check_near_answer`] and counted in `outcomes`.
    fn queries(
        &self,
        (hpa, graph, search): (&Abstraction, &NavGraph, &mut AbstractSearch),
        feet: &[IVec3],
        rng: &mut Rng,
        count: usize,
        what: &str,
        outcomes: &mut Outcomes,
    ) {
        if feet.len() < 2 {
            return;
        }
        for _ in 0..count {
            let (start, goal) = (rng.pick(feet), rng.pick(feet));
            let result = search
                .find_path(hpa, graph, start, goal, &SearchOptions::default())
                .expect("valid query");
            let context = format!("{what}: {start} -> {goal}");
            let (world, agent, costs) = (self.world, self.agent, self.costs);
            let answer = check_near_answer(world, agent, costs, (start, goal), &result, &context);
            outcomes.record(answer.is_some());
        }
    }
}

#[test]
fn abstraction_routes_are_legal_and_reachability_exact_on_random_worlds() {
    let mut rng = Rng::new(0xab57);
    let mut outcomes = Outcomes::default();
    let (mut through, mut above) = (0, 0);
    for round in 0..16 {
        let world = random_world_across(&mut rng, 34, 31);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let graph = NavGraph::compile(&world, &agent).expect("compiles");
        let hpa = Abstraction::build(&graph, &costs).expect("builds");
        // Every query that leaves its start's cell goes through the abstraction.
        let mut search = AbstractSearch::new().with_direct_cells(0);
        let feet = all_feet(&world, &agent);
        if feet.len() < 2 {
            continue;
        }
        for query in 0..12 {
            let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
            let context = format!("round {round} query {query}: {start} -> {goal}, {agent:?}");
            let result = search
                .find_path(&hpa, &graph, start, goal, &SearchOptions::default())
                .expect("valid query");
            let answer =
                check_near_answer(&world, &agent, &costs, (start, goal), &result, &context);
            outcomes.record(answer.is_some());
            if let Some((cost, best)) = answer {
                let apart = (start.x.div_euclid(16) - goal.x.div_euclid(16))
                    .abs()
                    .max((start.z.div_euclid(16) - goal.z.div_euclid(16)).abs());
                through += usize::from(apart > 0);
                above += usize::from(cost > best);
            }
        }
    }
    outcomes.assert_both_seen(40, 10);
    assert!(
        through > 40,
        "only {through} routes went through the abstraction"
    );
    // The abstraction is inexact on purpose: routes through it that were never above the
    // optimum would show these worlds test nothing of it.
    assert!(above > 0, "no route above the optimum in {through}");
}

/// Routes of at least 64 blocks on rolling hills 10 x 10 cells wide, through the abstraction
/// with its default direct distance, against A* over the graph: the bound the module docs
/// state (at most 1% above the optimum on average, 5% at worst).
#[test]
fn abstraction_costs_stay_within_one_percent_on_average_and_five_at_worst_on_hills() {
    let mut rng = Rng::new(0x4111);
    let world = support::worlds::hills_with_kinds(5, 160, 160);
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let graph = NavGraph::compile(&world, &agent).expect("compiles");
    let hpa = Abstraction::build(&graph, &costs).expect("builds");
    let mut search = AbstractSearch::new();
    // Buffers sized up front answer as the ones grown by the first query.
    let mut reserved = AbstractSearch::new();
    reserved
        .reserve_for(&hpa, &graph)
        .expect("the abstraction's costs");
    let mut plain = GraphSearch::new(costs).expect("costs");
    let feet = all_feet(&world, &agent);
    let options = SearchOptions::default();
    let mut ratios = Vec::new();
    while ratios.len() < 60 {
        let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
        let apart = (start - goal).abs();
        if apart.x.max(apart.z) < 64 {
            continue;
        }
        let ours = search
            .find_path(&hpa, &graph, start, goal, &options)
            .expect("valid query");
        let again = reserved
            .find_path(&hpa, &graph, start, goal, &options)
            .expect("valid query");
        assert_eq!((&again.path, again.cost), (&ours.path, ours.cost));
        let theirs = plain
            .find_path(&graph, start, goal, &options)
            .expect("valid query");
        assert_eq!(ours.status, theirs.status, "{start} -> {goal}");
        let (Some(cost), Some(best)) = (ours.cost, theirs.cost) else {
            continue;
        };
        let checked = check_path(&world, &agent, &costs, &ours.path);
        assert!(checked.is_legal(), "{start} -> {goal}: {checked:?}");
        assert_eq!(checked.cost, Some(cost), "{start} -> {goal}");
        let ratio = cost as f64 / best.max(1) as f64;
        assert!(ratio <= 1.05, "{start} -> {goal}: {cost} against {best}");
        ratios.push(ratio);
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    let worst = ratios.iter().copied().fold(1.0, f64::max);
    println!(
        "cost ratio mean {mean:.4}, worst {worst:.4} over {} routes",
        ratios.len()
    );
    assert!(mean <= 1.01, "mean cost ratio {mean}");
    // Exact answers everywhere would mean the abstraction was not what answered.
    assert!(
        ratios.iter().any(|&ratio| ratio > 1.0),
        "every route optimal"
    );
}

#[test]
fn abstraction_updates_after_random_block_changes_equal_a_fresh_build() {
    let mut rng = Rng::new(0x5eee);
    let mut outcomes = Outcomes::default();
    for round in 0..6 {
        let mut world = random_world_across(&mut rng, 30, 20);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
        let mut hpa = Abstraction::build(&graph, &costs).expect("builds");
        let bounds = world.world_bounds().expect("bounded");
        let size = bounds.size();
        world.track_changes(true);
        let mut search = AbstractSearch::new().with_direct_cells(0);
        for edit in 0..40 {
            for _ in 0..=rng.below(3) {
                let p = bounds.min
                    + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
                let block = if rng.chance(40) {
                    Block::Air
                } else {
                    random_block(&mut rng)
                };
                world.set(p, block).expect("inside");
            }
            let changes = world.take_changes();
            let update = graph.apply_changes(&world, &changes).expect("updates");
            hpa.update(&graph, &update).expect("updates");
            let fresh = Abstraction::build(&graph, &costs).expect("builds");
            let (ours, theirs) = (hpa.edges(&graph), fresh.edges(&graph));
            if let Some(first) = ours.iter().zip(&theirs).position(|(a, b)| a != b) {
                panic!(
                    "round {round} edit {edit}: edge {first} is {:?} after the update, {:?} in \
                     a fresh build",
                    ours[first], theirs[first]
                );
            }
            assert_eq!(ours.len(), theirs.len(), "round {round} edit {edit}");
            assert_eq!(hpa.portal_count(), fresh.portal_count());
            assert!(fresh.landmarks_current());
            // An update keeps the landmarks only when no abstract edge became new or cheaper
            // (`hier::hpa::edits` has the proof and its test): the queries below run on kept
            // landmarks too, and their costs are checked against Dijkstra all the same.
            // Half the checks search with the landmarks computed again, half without them.
            if edit % 16 == 15 {
                hpa.refresh_landmarks();
                assert!(hpa.landmarks_current());
            }
            if edit % 8 == 7 {
                let feet = all_feet(&world, &agent);
                let what = format!("round {round} edit {edit}");
                let checked = Checked {
                    world: &world,
                    agent: &agent,
                    costs: &costs,
                };
                checked.queries(
                    (&hpa, &graph, &mut search),
                    &feet,
                    &mut rng,
                    4,
                    &what,
                    &mut outcomes,
                );
            }
        }
    }
    outcomes.assert_both_seen(5, 1);
}

/// Change reports taken before the graph follows any of them (a server handing them to
/// another thread while its world changes on): after each but the last the graph trails its
/// world; both hierarchies follow it through each (they refused a graph behind its world, and
/// a router then dropped its abstraction for good), queries wait with [`Error::StaleGraph`]
/// until the graph catches up, and the result equals a fresh build and answers near the optimum.
#[test]
fn updates_follow_a_graph_that_trails_its_world() {
    let mut rng = Rng::new(0x7a11);
    let mut outcomes = Outcomes::default();
    for round in 0..6 {
        let mut world = random_world_across(&mut rng, 30, 20);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
        let mut hpa = Abstraction::build(&graph, &costs).expect("builds");
        let mut hier = Hierarchy::build(&graph, &costs).expect("builds");
        let bounds = world.world_bounds().expect("bounded");
        let size = bounds.size();
        world.track_changes(true);
        let mut reports = Vec::new();
        for _ in 0..3 {
            for _ in 0..4 {
                let p = bounds.min
                    + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
                world.set(p, random_block(&mut rng)).expect("inside");
            }
            reports.push(world.take_changes());
        }
        let feet = all_feet(&world, &agent);
        let mut search = AbstractSearch::new().with_direct_cells(0);
        for (nth, changes) in reports.iter().enumerate() {
            let context = format!("round {round}, report {nth}");
            let update = graph.apply_changes(&world, changes).expect("updates");
            hpa.update(&graph, &update).expect(&context);
            hier.update(&graph, &update).expect(&context);
            if nth + 1 < reports.len() && feet.len() >= 2 {
                let options = SearchOptions::default();
                let asked = search.find_path(&hpa, &graph, feet[0], feet[1], &options);
                assert!(
                    matches!(asked, Err(Error::StaleGraph { .. })),
                    "{context}: {asked:?}"
                );
            }
        }
        let fresh = Abstraction::build(&graph, &costs).expect("builds");
        assert_eq!(hpa.edges(&graph), fresh.edges(&graph), "round {round}");
        let fresh = Hierarchy::build(&graph, &costs).expect("builds");
        assert_eq!(
            hier_edges(&hier, &graph),
            hier_edges(&fresh, &graph),
            "round {round}"
        );
        let what = format!("round {round}");
        let checked = Checked {
            world: &world,
            agent: &agent,
            costs: &costs,
        };
        checked.queries(
            (&hpa, &graph, &mut search),
            &feet,
            &mut rng,
            8,
            &what,
            &mut outcomes,
        );
    }
    outcomes.assert_both_seen(10, 0);
}

/// Loads chunk column `(cx, cz)` of a world of height 16 from y -16: a floor 1 to 6 blocks
/// high, a few holes and posts.
fn load_column(world: &mut ChunkedWorld, rng: &mut Rng, cx: i32, cz: i32) {
    let palette = [Block::Air, Block::Solid];
    let level = 1 + rng.below(6) as usize;
    let cells: Vec<u16> = (0..4096)
        .map(|i| {
            let (y, column) = (i / 256, i % 256);
            let floor = y < level && column % 23 != 5;
            let post = y < level + 2 && column % 37 == 11;
            u16::from(floor || post)
        })
        .collect();
    world
        .insert_column(cx, cz, [(&palette[..], &cells[..])])
        .expect("a valid column");
}

/// Chunk columns loaded, unloaded and loaded again (with block edits between) at negative
/// chunk coordinates: after each, the updated abstraction lists the edges a fresh build does,
/// and its routes are legal, near the optimum, and found exactly when one exists.
#[test]
fn abstraction_updates_after_column_loads_and_unloads_equal_a_fresh_build() {
    let mut rng = Rng::new(0x10ad);
    let mut outcomes = Outcomes::default();
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut world = ChunkedWorld::with_height(-16, 16).expect("a valid height");
    world.track_changes(true);
    let columns: Vec<(i32, i32)> = (-3..1)
        .flat_map(|cx| (-2..1).map(move |cz| (cx - 100, cz)))
        .collect();
    for &(cx, cz) in &columns {
        load_column(&mut world, &mut rng, cx, cz);
    }
    world.take_changes();
    let mut loaded = columns.clone();
    let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
    let mut hpa = Abstraction::build(&graph, &costs).expect("builds");
    let mut search = AbstractSearch::new().with_direct_cells(0);
    for step in 0..30 {
        let (cx, cz) = columns[rng.below(columns.len() as u64) as usize];
        if loaded.contains(&(cx, cz)) && loaded.len() > 2 && rng.chance(50) {
            world.remove_column(cx, cz);
            loaded.retain(|&column| column != (cx, cz));
        } else {
            load_column(&mut world, &mut rng, cx, cz);
            if !loaded.contains(&(cx, cz)) {
                loaded.push((cx, cz));
            }
        }
        // A block edit in a loaded column too, on the border columns half the time.
        let (ex, ez) = loaded[rng.below(loaded.len() as u64) as usize];
        let local = |rng: &mut Rng| {
            if rng.chance(50) {
                15 * rng.below(2) as i32
            } else {
                rng.below(16) as i32
            }
        };
        let p = IVec3::new(
            ex * 16 + local(&mut rng),
            -16 + rng.below(8) as i32,
            ez * 16 + local(&mut rng),
        );
        let block = if rng.chance(50) {
            Block::Air
        } else {
            Block::Solid
        };
        world.set(p, block).expect("inside a loaded column");
        let changes = world.take_changes();
        let update = graph.apply_changes(&world, &changes).expect("updates");
        hpa.update(&graph, &update).expect("updates");
        let fresh = Abstraction::build(&graph, &costs).expect("builds");
        assert_eq!(hpa.edges(&graph), fresh.edges(&graph), "step {step}");
        assert_eq!(hpa.portal_count(), fresh.portal_count(), "step {step}");
        if step % 3 == 2 {
            hpa.refresh_landmarks();
        }
        let feet = all_feet(&world, &agent);
        for _ in 0..6 {
            if feet.len() < 2 {
                break;
            }
            let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
            let result = search
                .find_path(&hpa, &graph, start, goal, &SearchOptions::default())
                .expect("valid query");
            let context = format!("step {step}: {start} -> {goal}");
            let answer =
                check_near_answer(&world, &agent, &costs, (start, goal), &result, &context);
            outcomes.record(answer.is_some());
        }
    }
    outcomes.assert_both_seen(20, 1);
}

/// A window of 3 x 2 loaded columns slides from chunk x -13 to 10 and back (two columns
/// loaded ahead and two unloaded behind at each step): after every step the updated
/// abstraction equals a fresh build, holds exactly its cells (none left for unloaded
/// columns), and with its landmark distances at most a quarter more memory, however many
/// columns it has seen.
#[test]
fn abstraction_memory_follows_a_sliding_window_of_loaded_columns() {
    let mut rng = Rng::new(0x5116);
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut world = ChunkedWorld::with_height(-16, 16).expect("a valid height");
    world.track_changes(true);
    let (width, first) = (3, -13);
    for cx in first..first + width {
        for cz in -1..1 {
            load_column(&mut world, &mut rng, cx, cz);
        }
    }
    world.take_changes();
    let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
    let mut hpa = Abstraction::build(&graph, &costs).expect("builds");
    // Right to the last column, then back left to the first: 42 steps.
    let slides = (0..21).map(|_| 1).chain((0..21).map(|_| -1));
    let mut low = first;
    for (step, slide) in slides.enumerate() {
        let (gone, new) = if slide > 0 {
            (low, low + width)
        } else {
            (low + width - 1, low - 1)
        };
        low += slide;
        for cz in -1..1 {
            world.remove_column(gone, cz);
            load_column(&mut world, &mut rng, new, cz);
        }
        let changes = world.take_changes();
        let update = graph.apply_changes(&world, &changes).expect("updates");
        hpa.update(&graph, &update).expect("updates");
        let fresh = Abstraction::build(&graph, &costs).expect("builds");
        assert_eq!(hpa.edges(&graph), fresh.edges(&graph), "step {step}");
        assert_eq!(hpa.cell_count(), fresh.cell_count(), "step {step}");
        assert_eq!(hpa.cell_count(), 2 * width as usize, "step {step}");
        // With its landmark distances, as a fresh build has them.
        hpa.refresh_landmarks();
        assert!(hpa.landmarks_current(), "step {step}");
        assert!(
            hpa.memory_bytes() * 4 <= fresh.memory_bytes() * 5,
            "step {step}: {} bytes against a fresh build's {}",
            hpa.memory_bytes(),
            fresh.memory_bytes()
        );
    }
}

#[test]
fn abstraction_budgets_unreachable_goals_bad_input_and_staleness_answer_as_astar() {
    let mut world = rooms();
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
    let mut hpa = Abstraction::build(&graph, &costs).expect("builds");
    let mut search = AbstractSearch::new().with_direct_cells(0);
    let options = SearchOptions::default();
    let (start, goal, boxed) = (
        IVec3::new(2, 1, 18),
        IVec3::new(30, 1, 18),
        IVec3::new(37, 1, 11),
    );
    let full = search
        .find_path(&hpa, &graph, start, goal, &options)
        .expect("valid query");
    assert_eq!(full.status, SearchStatus::Found);
    let estimate = |feet: IVec3| {
        voxnav::search::heuristic::Heuristic::default()
            .estimator(&agent, &costs)
            .between(feet, goal)
    };
    let mut partial_seen = 0;
    for budget in [1, 2, 5, 20, 60, 120, 400, 5_000] {
        let result = search
            .find_path(&hpa, &graph, start, goal, &options.with_max_nodes(budget))
            .expect("valid query");
        match result.status {
            SearchStatus::Partial => {
                partial_seen += 1;
                assert_eq!(result.path.first(), Some(&start), "budget {budget}");
                let checked = check_path(&world, &agent, &costs, &result.path);
                assert!(checked.is_legal(), "budget {budget}: {checked:?}");
                assert_eq!(checked.cost, result.cost, "budget {budget}");
                let end = *result.path.last().expect("a route");
                assert!(estimate(end) <= estimate(start), "budget {budget}");
            }
            SearchStatus::Found => assert_eq!(result.cost, full.cost, "budget {budget}"),
            SearchStatus::Unreachable => panic!("budget {budget}: the goal is reachable"),
        }
    }
    assert!(partial_seen >= 2, "{partial_seen} partial answers");

    // The box: the abstraction finds no route, and A* over the graph confirms it.
    let result = search
        .find_path(&hpa, &graph, start, boxed, &options)
        .expect("valid query");
    assert_eq!(result.status, SearchStatus::Unreachable);
    assert!(result.path.is_empty());
    assert!(matches!(
        search.find_path(&hpa, &graph, start, boxed, &options.with_max_nodes(0)),
        Err(Error::ZeroBudget)
    ));
    let in_wall = IVec3::new(19, 3, 10);
    assert!(matches!(
        search.find_path(&hpa, &graph, in_wall, boxed, &options),
        Err(Error::InvalidStart { pos, .. }) if pos == in_wall
    ));
    assert!(matches!(
        search.find_path(&hpa, &graph, start, in_wall, &options),
        Err(Error::InvalidGoal { pos, .. }) if pos == in_wall
    ));

    // Open the box: the graph follows, the abstraction refuses until it follows too.
    world.track_changes(true);
    world
        .fill(IVec3::new(35, 1, 11), IVec3::new(35, 2, 11), Block::Air)
        .expect("inside");
    let changes = world.take_changes();
    let update = graph.apply_changes(&world, &changes).expect("updates");
    assert!(matches!(
        search.find_path(&hpa, &graph, start, boxed, &options),
        Err(Error::StaleGraph { .. })
    ));
    hpa.update(&graph, &update).expect("updates");
    let result = search
        .find_path(&hpa, &graph, start, boxed, &options)
        .expect("valid query");
    check_near_answer(
        &world,
        &agent,
        &costs,
        (start, boxed),
        &result,
        "opened box",
    )
    .expect("a route into the opened box");
    assert!(format!("{hpa:?}").starts_with("Abstraction {"));
}

/// The probe (`hier::hpa::search::direct`): ends past the direct distance but at most
/// `PROBE_BLOCKS` apart are answered by A* over the graph when it ends within 16 nodes per
/// block (found exactly, or unreachable), by the abstraction when it does not; a node budget
/// at most the probe's ends the query with the probe's partial route, as A* over the graph.
#[test]
fn the_probe_answers_near_queries_by_astar_within_its_budget() {
    let world = rooms();
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let graph = NavGraph::compile(&world, &agent).expect("compiles");
    let hpa = Abstraction::build(&graph, &costs).expect("builds");
    let options = SearchOptions::default();
    let mut astar = GraphSearch::new(costs).expect("valid costs");
    let mut probing = AbstractSearch::new();
    let mut without = AbstractSearch::new().with_probe_blocks(0);
    // Three chunk columns apart (past the direct distance), 36 blocks: through the corridor.
    let (start, goal, boxed) = (
        IVec3::new(2, 1, 18),
        IVec3::new(38, 1, 18),
        IVec3::new(37, 1, 11),
    );
    let plain = astar
        .find_path(&graph, start, goal, &options)
        .expect("valid");
    assert_eq!(plain.status, SearchStatus::Found);
    assert!(plain.stats.expanded <= 16 * 36, "{}", plain.stats.expanded);
    let probed = probing
        .find_path(&hpa, &graph, start, goal, &options)
        .expect("valid");
    assert_eq!(
        (probed.status, probed.cost, probed.stats.expanded),
        (plain.status, plain.cost, plain.stats.expanded)
    );
    let through = without
        .find_path(&hpa, &graph, start, goal, &options)
        .expect("valid");
    assert_eq!(through.status, SearchStatus::Found);
    assert_ne!(through.stats.expanded, plain.stats.expanded);
    // Unreachable: the box is sealed. The start's side holds more nodes than the probe's
    // budget, so the probe gives up and the abstraction, then A* over the graph, decide: the
    // probe's expansions are counted in the query's.
    let sealed = probing
        .find_path(&hpa, &graph, start, boxed, &options)
        .expect("valid");
    let plain_sealed = astar
        .find_path(&graph, start, boxed, &options)
        .expect("valid");
    assert_eq!(sealed.status, SearchStatus::Unreachable);
    assert!(plain_sealed.stats.expanded > 16 * 36);
    assert!(sealed.stats.expanded > plain_sealed.stats.expanded + 16 * 36);
    // A budget below the probe's: A* over the graph's partial answer with that budget.
    let tight = options.with_max_nodes(5);
    let partial = probing
        .find_path(&hpa, &graph, start, goal, &tight)
        .expect("valid");
    let plain_partial = astar.find_path(&graph, start, goal, &tight).expect("valid");
    assert_eq!(partial.status, SearchStatus::Partial);
    assert_eq!(
        (&partial.path, partial.cost),
        (&plain_partial.path, plain_partial.cost)
    );
}
