//! The reachability index follows block edits and chunk column loads locally (issue 21
//! item 3): never a relabelling of the world, and never "unreachable" for a reachable goal.

mod support;

use std::collections::HashSet;

use support::oracle::{all_feet, dijkstra_all};
use support::rng::Rng;
use voxnav::engine::{IndexedRouter, Navigator, Pathfinder, Reach, ReachIndex};
use voxnav::{Agent, Block, ChunkedWorld, Engine, IVec3, MoveCosts, Router, SearchOptions};

/// The height of the worlds: two sections, y from -16 to 16 (a chunk border at y = 0).
const MIN_Y: i32 = -16;
const MAX_Y: i32 = 16;

/// A column of hilly ground: floor tops from y = -4 to y = 3 in 4 x 4 patches (cliffs of up
/// to 7 blocks, so ledges only reachable one way, and pits), a few pillars and floating
/// slabs.
fn column(rng: &mut Rng) -> Vec<(Vec<Block>, Vec<u16>)> {
    let mut cells = vec![0u16; 4096 * 2];
    let patches: Vec<i32> = (0..16).map(|_| rng.coord(8) - 4).collect();
    for x in 0..16 {
        for z in 0..16 {
            let top = patches[(x / 4 * 4 + z / 4) as usize] + i32::from(rng.chance(10));
            for y in MIN_Y..MAX_Y {
                let solid =
                    y <= top || (y == 6 && rng.chance(4)) || (y == top + 1 && rng.chance(3));
                if solid {
                    cells[(((y - MIN_Y) * 16 + z) * 16 + x) as usize] = 1;
                }
            }
        }
    }
    (0..2)
        .map(|s| {
            (
                vec![Block::Air, Block::Solid],
                cells[s * 4096..(s + 1) * 4096].to_vec(),
            )
        })
        .collect()
}

fn load(world: &mut ChunkedWorld, rng: &mut Rng, (cx, cz): (i32, i32)) {
    let sections = column(rng);
    world
        .insert_column(
            cx,
            cz,
            sections.iter().map(|(p, i)| (p.as_slice(), i.as_slice())),
        )
        .unwrap();
}

/// One step's edits of the live-world tests: one to four times, in a column of `area` or
/// `beyond`, an unload or load of the column (not of the `corners`) or a 1 x 3 x 1 wall or
/// hole, so that edits both cut and join regions.
fn edit_step(
    world: &mut ChunkedWorld,
    rng: &mut Rng,
    area: &[(i32, i32)],
    corners: [(i32, i32); 2],
    beyond: [(i32, i32); 2],
) {
    for _ in 0..=rng.below(3) {
        let at = if rng.chance(20) {
            beyond[rng.index(beyond.len())]
        } else {
            area[rng.index(area.len())]
        };
        if rng.chance(15) && !corners.contains(&at) {
            if world.is_column_loaded(at.0, at.1) {
                world.remove_column(at.0, at.1);
            } else {
                load(world, rng, at);
            }
        } else if world.is_column_loaded(at.0, at.1) {
            let p = IVec3::new(
                at.0 * 16 + rng.coord(16),
                rng.coord(12) - 5,
                at.1 * 16 + rng.coord(16),
            );
            let block = rng.pick(&[Block::Air, Block::Solid]);
            world.fill(p, p + IVec3::new(0, 2, 0), block).unwrap();
        }
    }
}

/// Random block edits, column unloads and reloads, and loads of columns past the bounds the
/// graph and the index were built for, each followed by `apply_changes`: after every step the index was updated locally (its
/// count of local updates grows, it is current, and it labels every valid feet position),
/// every `Separate` it gives is `Separate` in a fresh build too, every `Separate` or
/// `OneWay` is confirmed by an exhaustive search, the navigator's answers equal a plain
/// search's, and a prepared router's (long ones through its abstraction, kept current too)
/// have the same status, legal routes, and costs 1% above the optimum at most on average.
///
/// Each route through the abstraction is held within 25% only: HPA* has no bound per route.
/// This test run with sixteen worlds and twenty times the queries (11 477 routes two or three
/// chunks apart) found 6 routes more than 5% above the optimum, 12.8% at worst, for 0.01% on
/// average; a route far past that points to a fault, not to the fixed portals. (Before short
/// routes got one window, the same run found 263 past 5%, 55.3% at worst.)
#[test]
fn a_locally_updated_index_never_calls_a_reachable_goal_unreachable() {
    let agent = Agent::default();
    let options = SearchOptions::default();
    let mut plain = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    let (mut proved, mut confirmed_reachable) = (0, 0);
    // Routes through the router and their costs above the optimum, in parts of the optimum.
    let (mut routed_count, mut excess) = (0u32, 0.0);
    for (seed, base) in [(1u64, (-1, -1)), (2, (-62_501, 3)), (3, (7, -40_001))] {
        let mut rng = Rng::new(0x21_0300 + seed);
        let mut world = ChunkedWorld::with_height(MIN_Y, MAX_Y).unwrap();
        let area: Vec<(i32, i32)> = (0..3)
            .flat_map(|dx| (0..2).map(move |dz| (base.0 + dx, base.1 + dz)))
            .collect();
        for &at in &area {
            load(&mut world, &mut rng, at);
        }
        let corners = [area[0], area[area.len() - 1]];
        // Columns past the bounds the graph and the index were built for, loaded on the way:
        // both follow them locally.
        let beyond = [(base.0 + 3, base.1 + 2), (base.0 - 1, base.1 + 1)];
        let mut navigator = Navigator::new(agent, MoveCosts::default())
            .unwrap()
            .with_lazy_rebuild(false);
        navigator.build_graph(&world).unwrap();
        navigator.build_index(&world).unwrap();
        let mut router = Router::new(agent, MoveCosts::default()).unwrap();
        assert!(router.prepare(&world).unwrap());
        world.track_changes(true);
        for step in 1..=12u64 {
            if step == 2 || step == 7 {
                load(&mut world, &mut rng, beyond[usize::from(step == 7)]);
            }
            edit_step(&mut world, &mut rng, &area, corners, beyond);
            let changes = world.take_changes();
            assert!(navigator.apply_changes(&world, &changes).unwrap());
            router.apply_changes(&world, &changes).unwrap();
            assert_eq!(router.engine(&world), Engine::Graph, "kept, not forgotten");
            let index = navigator
                .index()
                .expect("the index followed the changes")
                .clone();
            assert_eq!(index.local_updates(), step, "updated, not rebuilt");
            assert!(index.is_current(&world));
            let fresh = ReachIndex::build(&world, &agent).unwrap();
            let feet = all_feet(&world, &agent);
            let valid: HashSet<IVec3> = feet.iter().copied().collect();
            for _ in 0..4 {
                let start = feet[rng.index(feet.len())];
                let reachable = dijkstra_all(&world, &agent, &MoveCosts::default(), start);
                for _ in 0..25 {
                    let goal = if rng.chance(30) {
                        // Near the start: where one-way answers are decided.
                        let near = start
                            + IVec3::new(rng.coord(9) - 4, rng.coord(9) - 4, rng.coord(9) - 4);
                        if valid.contains(&near) { near } else { start }
                    } else {
                        feet[rng.index(feet.len())]
                    };
                    let answer = index.reach(&world, &agent, start, goal);
                    assert_ne!(answer, Reach::Unknown, "{start} -> {goal}");
                    if answer.proves_unreachable() {
                        proved += 1;
                        assert!(
                            !reachable.contains_key(&goal),
                            "seed {seed} step {step}: {answer:?} for reachable {start} -> {goal}"
                        );
                    } else if reachable.contains_key(&goal) {
                        confirmed_reachable += 1;
                    }
                    if answer == Reach::Separate {
                        assert_eq!(fresh.reach(&world, &agent, start, goal), Reach::Separate);
                    }
                    let ours = navigator.find_path(&world, start, goal, &options).unwrap();
                    let theirs = plain.find_path(&world, start, goal, &options).unwrap();
                    assert_eq!(
                        (ours.status, ours.cost),
                        (theirs.status, theirs.cost),
                        "seed {seed} step {step}: {start} -> {goal}"
                    );
                    assert_eq!(ours.cost, reachable.get(&goal).copied());
                    // The router sends routes over a chunk long through its abstraction,
                    // kept current through the loads and edits: legal, within the bound.
                    let routed = router.route(&world, start, goal).unwrap();
                    assert_eq!(routed.status, theirs.status, "{start} -> {goal}");
                    if let (Some(cost), Some(optimum)) = (routed.cost, theirs.cost) {
                        let check =
                            voxnav::check_path(&world, &agent, &MoveCosts::default(), &routed.path);
                        assert!(check.is_legal() && check.cost == routed.cost, "{check:?}");
                        assert!(
                            cost >= optimum && cost * 100 <= optimum * 125,
                            "seed {seed} step {step}: {start} -> {goal}: {cost} vs {optimum}"
                        );
                        if optimum > 0 {
                            routed_count += 1;
                            excess += (cost - optimum) as f64 / optimum as f64;
                        }
                    }
                }
            }
            // A position that is no longer valid is not answered for.
            let gone = IVec3::new(area[0].0 * 16, MAX_Y - 1, area[0].1 * 16);
            assert_eq!(index.reach(&world, &agent, gone, feet[0]), Reach::Unknown);
        }
    }
    assert!(
        proved > 50 && confirmed_reachable > 50,
        "both kinds of answer seen: {proved} proved, {confirmed_reachable} reachable"
    );
    assert!(
        routed_count > 100 && excess / f64::from(routed_count) <= 0.01,
        "{routed_count} routes, {excess} above the optimum in all"
    );
}

/// A wall that cuts a floor in two: a fresh build proves the far side unreachable, the
/// locally updated index only says "maybe" (its regions only merge, which a relabelling of
/// the world would not do), and the navigator's search still finds no route. Stairs that
/// join the floor to a ledge that was proved unreachable make it reachable at once.
#[test]
fn local_updates_merge_regions_and_never_split_them() {
    let agent = Agent::default();
    let options = SearchOptions::default();
    let mut world = ChunkedWorld::with_height(MIN_Y, MAX_Y).unwrap();
    let floor = vec![Block::Air, Block::Solid];
    let mut cells = vec![0u16; 4096];
    for x in 0..16 {
        for z in 0..16 {
            cells[(z * 16 + x) as usize] = 1;
            // A ledge at x = 12..16, z = 12..16: its top (feet at y = 5) is too high to
            // climb onto and to drop from.
            if x >= 12 && z >= 12 {
                for y in 0..5 {
                    cells[((y * 16 + z) * 16 + x) as usize] = 1;
                }
            }
        }
    }
    for cx in [-1, 0] {
        world
            .insert_column(
                cx,
                -1,
                [
                    (&[Block::Air][..], &[][..]),
                    (floor.as_slice(), cells.as_slice()),
                ],
            )
            .unwrap();
    }
    let (west, east) = (IVec3::new(-10, 1, -8), IVec3::new(5, 1, -8));
    let ledge = IVec3::new(13, 5, -3);
    let mut navigator = Navigator::new(agent, MoveCosts::default())
        .unwrap()
        .with_lazy_rebuild(false);
    navigator.build_graph(&world).unwrap();
    navigator.build_index(&world).unwrap();
    world.track_changes(true);
    let reach = |n: &Navigator, w: &ChunkedWorld, a, b| n.index().unwrap().reach(w, &agent, a, b);
    assert_eq!(reach(&navigator, &world, west, east), Reach::SameRegion);
    assert!(reach(&navigator, &world, east, ledge).proves_unreachable());

    // A wall 3 high across the whole floor at x = -1, on both sides of the chunk border.
    world
        .fill(IVec3::new(-1, 1, -16), IVec3::new(-1, 3, -1), Block::Solid)
        .unwrap();
    let changes = world.take_changes();
    navigator.apply_changes(&world, &changes).unwrap();
    let fresh = ReachIndex::build(&world, &agent).unwrap();
    // One way only: down from the west ledge onto the wall, then down either side.
    assert!(fresh.reach(&world, &agent, west, east).proves_unreachable());
    assert_eq!(reach(&navigator, &world, west, east), Reach::SameRegion);
    let result = navigator.find_path(&world, west, east, &options).unwrap();
    assert_eq!(result.status, voxnav::SearchStatus::Unreachable);
    assert!(
        result.stats.expanded > 0,
        "searched, not answered by the index"
    );

    // Stairs up to the ledge on the east side: 1, 2, 3, 4 blocks high at x = 8..12.
    for (i, x) in (8..12).enumerate() {
        world
            .fill(
                IVec3::new(x, 1, -3),
                IVec3::new(x, 1 + i as i32, -3),
                Block::Solid,
            )
            .unwrap();
    }
    let changes = world.take_changes();
    navigator.apply_changes(&world, &changes).unwrap();
    assert_eq!(reach(&navigator, &world, east, ledge), Reach::SameRegion);
    let result = navigator.find_path(&world, east, ledge, &options).unwrap();
    assert_eq!(result.status, voxnav::SearchStatus::Found);
    assert_eq!(navigator.index().unwrap().local_updates(), 2);
}

/// Columns unloaded and loaded again and again (with edits between): the index gives back
/// what the unloads free (the labels and positions of removed nodes), so its memory stays
/// within three times what it held after the first load (a hash map's buckets may double
/// when removals leave tombstones, and labels are renumbered once they double) rather than
/// growing with every reload (which took it past 6 times by the end, before), and its
/// answers stay sound: every `Separate` or `OneWay` is confirmed by an exhaustive search,
/// and every `Separate` is one in a fresh build too.
#[test]
fn an_index_gives_back_what_unloads_free_and_stays_sound() {
    let agent = Agent::default();
    let mut rng = Rng::new(0x21_0321);
    let mut world = ChunkedWorld::with_height(MIN_Y, MAX_Y).unwrap();
    let area: Vec<(i32, i32)> = (-1..2)
        .flat_map(|dx| (-1..2).map(move |dz| (dx, dz)))
        .collect();
    let mut navigator = Navigator::new(agent, MoveCosts::default())
        .unwrap()
        .with_lazy_rebuild(false);
    navigator.build_graph(&world).unwrap();
    navigator.build_index(&world).unwrap();
    world.track_changes(true);
    for &at in &area {
        load(&mut world, &mut rng, at);
    }
    let changes = world.take_changes();
    assert!(navigator.apply_changes(&world, &changes).unwrap());
    let first = navigator.index().unwrap().memory_bytes();
    let mut proved = 0;
    for step in 0..150 {
        // One or two columns out, then in again with new blocks, and an edit.
        for _ in 0..=rng.below(2) {
            let at = area[rng.index(area.len())];
            world.remove_column(at.0, at.1);
            let changes = world.take_changes();
            assert!(navigator.apply_changes(&world, &changes).unwrap());
            load(&mut world, &mut rng, at);
        }
        let at = area[rng.index(area.len())];
        let p = IVec3::new(
            at.0 * 16 + rng.coord(16),
            rng.coord(12) - 5,
            at.1 * 16 + rng.coord(16),
        );
        world
            .fill(
                p,
                p + IVec3::new(0, 2, 0),
                rng.pick(&[Block::Air, Block::Solid]),
            )
            .unwrap();
        let changes = world.take_changes();
        assert!(navigator.apply_changes(&world, &changes).unwrap());
        let index = navigator.index().expect("the index followed the changes");
        assert!(index.is_current(&world));
        let bytes = index.memory_bytes();
        assert!(
            bytes <= 3 * first,
            "step {step}: {bytes} bytes, {first} after the first load"
        );
        if step % 10 == 0 {
            let fresh = ReachIndex::build(&world, &agent).unwrap();
            let feet = all_feet(&world, &agent);
            for _ in 0..3 {
                let start = feet[rng.index(feet.len())];
                let reachable = dijkstra_all(&world, &agent, &MoveCosts::default(), start);
                for _ in 0..30 {
                    let goal = feet[rng.index(feet.len())];
                    let answer = index.reach(&world, &agent, start, goal);
                    assert_ne!(answer, Reach::Unknown, "{start} -> {goal}");
                    if answer.proves_unreachable() {
                        proved += 1;
                        assert!(
                            !reachable.contains_key(&goal),
                            "step {step}: {start} -> {goal}"
                        );
                    }
                    if answer == Reach::Separate {
                        assert_eq!(fresh.reach(&world, &agent, start, goal), Reach::Separate);
                    }
                }
            }
        }
    }
    assert!(proved > 20, "only {proved} unreachable answers");
}

/// A short route through the router's abstraction (ends two chunks apart, 18 blocks): the
/// abstract route went round through the cells beside the direct ones, and its windows, kept
/// to its cells, walked it 7.3% above the optimum. Short routes are now refined by one window
/// over the box of chunks between their ends and the abstract route's cells. The world is
/// the first one of `a_locally_updated_index_never_calls_a_reachable_goal_unreachable` after
/// its first step of edits (found by running that test with ten times the queries).
#[test]
fn a_short_route_through_the_abstraction_keeps_near_the_optimum() {
    let agent = Agent::default();
    let mut rng = Rng::new(0x21_0301);
    let mut world = ChunkedWorld::with_height(MIN_Y, MAX_Y).unwrap();
    let area: Vec<(i32, i32)> = (0..3)
        .flat_map(|dx| (0..2).map(move |dz| (dx - 1, dz - 1)))
        .collect();
    for &at in &area {
        load(&mut world, &mut rng, at);
    }
    let corners = [area[0], area[area.len() - 1]];
    let beyond = [(2, 1), (-2, 0)];
    // The first step's edits, drawn as that test draws them.
    edit_step(&mut world, &mut rng, &area, corners, beyond);
    let (start, goal) = (IVec3::new(16, 4, 13), IVec3::new(-2, 0, 0));
    let mut plain = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    let optimum = plain
        .find_path(&world, start, goal, &SearchOptions::default())
        .unwrap()
        .cost
        .expect("reachable");
    let mut router = Router::new(agent, MoveCosts::default()).unwrap();
    assert!(router.prepare(&world).unwrap());
    let routed = router.route(&world, start, goal).unwrap();
    let check = voxnav::check_path(&world, &agent, &MoveCosts::default(), &routed.path);
    assert!(check.is_legal() && check.cost == routed.cost, "{check:?}");
    let cost = routed.cost.expect("found");
    assert!(
        cost >= optimum && cost * 100 <= optimum * 101,
        "{cost} against {optimum}"
    );
}
