//! Long routes through the abstraction (`voxnav::hier::Abstraction`, HPA* style) on the real
//! region the tests ship (`tests/data/minecraft/r.1.1.mca`, 203 full chunks of a vanilla
//! 1.21.11 world among 373 unloaded ones): the synthetic worlds of `tests/hier_hpa.rs` and
//! `tests/router.rs` have no caves, trees, water, slabs, stairs or unloaded holes, and no
//! other test prepares a router on a real world.
//!
//! - A router answers far pairs through the abstraction: legal routes under the path check,
//!   costing what they report, "unreachable" exactly when A* over the graph says so, within
//!   the bounds `tests/router.rs` holds (25% per route, 1% on average; HPA* has no bound per
//!   route), for walkers of three bodies, through block edits and chunk columns unloaded and
//!   loaded again.
//! - The abstraction kept current through those changes lists the edges a fresh build does.
//!
//! Run with four times the rounds, two and a half times the pairs and six other seeds (a
//! scratch copy, not kept): 6 700 far routes found (about 22% of the pairs are unreachable,
//! across unloaded chunks), every one legal and through the abstraction, 0.28% to 0.39% above
//! the optimum on average by body and seed, 5.2% at worst; the abstraction equal to a fresh
//! build after each of 480 rounds of changes. (That run came before near routes tried A*
//! over the graph first: since, routes at most 64 blocks apart are mostly A*'s, exact.)

#![cfg(feature = "anvil")]

mod support;

use support::region::loaded;
use support::rng::Rng;
use voxnav::graph::NavGraph;
use voxnav::hier::Abstraction;
use voxnav::world::pick::{pick_pairs, surface_feet};
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, Router, SearchStatus};

/// A column world's bottom and top, as the Anvil loader makes it.
const BOTTOM: i32 = -64;
const TOP: i32 = 320;

/// Chunk column `(cx, cz)`'s blocks as sections from the bottom up, each a palette and its
/// 4096 indices in Minecraft's order (y, then z, then x), as `insert_column` takes them.
fn column_sections(world: &ChunkedWorld, (cx, cz): (i32, i32)) -> Vec<(Vec<Block>, Vec<u16>)> {
    let mut sections = Vec::new();
    for base in (BOTTOM..TOP).step_by(16) {
        let (mut palette, mut indices) = (Vec::<Block>::new(), Vec::with_capacity(4096));
        for i in 0..4096 {
            let p = IVec3::new(
                cx * 16 + (i & 15),
                base + (i >> 8),
                cz * 16 + ((i >> 4) & 15),
            );
            let block = world.get(p).expect("inside the column world's height");
            let at = palette.iter().position(|&b| b == block).unwrap_or_else(|| {
                palette.push(block);
                palette.len() - 1
            });
            indices.push(u16::try_from(at).expect("a section has at most 4096 kinds"));
        }
        sections.push((palette, indices));
    }
    sections
}

/// One round of changes to the real world: `blocks` edits at the surface of random loaded
/// columns (a block set on the ground, a hole dug under the feet, water or lava poured, a
/// slab laid), then, when `reload` is set, one loaded chunk column unloaded and the next
/// loaded again from its own blocks (two reports, as a server streams them). Each change
/// report goes to `apply` as soon as it is taken, with the world it leads to.
fn change_round(
    world: &mut ChunkedWorld,
    rng: &mut Rng,
    chunks: &[(i32, i32)],
    (blocks, reload): (usize, bool),
    apply: &mut dyn FnMut(&ChunkedWorld, &voxnav::Changes),
) {
    let agent = Agent::default();
    for _ in 0..blocks {
        let (cx, cz) = chunks[rng.index(chunks.len())];
        let (x, z) = (cx * 16 + rng.coord(16), cz * 16 + rng.coord(16));
        let Some(feet) = surface_feet(&*world, &agent, x, z) else {
            continue;
        };
        let (at, block) = match rng.below(5) {
            0 => (feet, Block::Solid),
            1 => (feet - IVec3::Y, Block::Air),
            2 => (feet - IVec3::Y, Block::Water),
            3 => (feet, Block::Floor(8)),
            _ => (feet + IVec3::Y, Block::Solid),
        };
        world.set(at, block).expect("a loaded cell");
    }
    let changes = world.take_changes();
    apply(world, &changes);
    if reload {
        let (cx, cz) = chunks[rng.index(chunks.len())];
        let sections = column_sections(world, (cx, cz));
        assert!(world.remove_column(cx, cz));
        let changes = world.take_changes();
        apply(world, &changes);
        world
            .insert_column(
                cx,
                cz,
                sections.iter().map(|(p, i)| (p.as_slice(), i.as_slice())),
            )
            .expect("the column loads again");
        let changes = world.take_changes();
        apply(world, &changes);
    }
}

#[test]
fn long_routes_on_the_shipped_region_are_legal_and_near_the_optimum() -> voxnav::Result<()> {
    let region = loaded();
    let chunks = &region.loaded_chunks;
    let costs = MoveCosts::default();
    let bodies = [
        ("walker", Agent::default()),
        ("zombie", Agent::mob("zombie")?),
        ("iron_golem", Agent::mob("iron_golem")?),
    ];
    for (seed, (name, agent)) in bodies.into_iter().enumerate() {
        let mut world = region.world.clone();
        world.track_changes(true);
        let mut long = Router::new(agent, costs)?;
        let mut exact = Router::new(agent, costs)?.with_long_routes(false);
        assert!(long.prepare(&world)? && exact.prepare(&world)?, "{name}");
        assert!(
            long.prepared_bytes() > exact.prepared_bytes(),
            "{name}: the abstraction is kept"
        );
        let mut rng = Rng::new(0x00ea_1000 + seed as u64);
        let (mut found, mut apart, mut through, mut ratio_sum) = (0u32, 0u32, 0u32, 0.0);
        let (mut unreachable, mut worst) = (0u32, 1.0f64);
        for round in 0..4u64 {
            if round > 0 {
                let mut apply = |world: &ChunkedWorld, changes: &voxnav::Changes| {
                    long.apply_changes(world, changes).expect("applies");
                    exact.apply_changes(world, changes).expect("applies");
                };
                change_round(
                    &mut world,
                    &mut rng,
                    chunks,
                    (12, round % 2 == 1),
                    &mut apply,
                );
                if round == 2 {
                    long.refresh_long_routes();
                }
            }
            let pairs = pick_pairs(&world, &agent, 97 * seed as u64 + round, 12, 40.0..=360.0);
            for (start, goal) in pairs {
                // Ends at most a chunk apart go straight to A* over the graph.
                let cells = |a: i32, b: i32| (a.div_euclid(16) - b.div_euclid(16)).abs();
                if cells(start.x, goal.x).max(cells(start.z, goal.z)) < 2 {
                    continue;
                }
                apart += 1;
                let routed = long.route(&world, start, goal)?;
                let best = exact.route(&world, start, goal)?;
                let what = format!("{name}, round {round}: {start} -> {goal}");
                assert_eq!(routed.status, best.status, "{what}");
                if routed.status != SearchStatus::Found {
                    unreachable += 1;
                    continue;
                }
                found += 1;
                through += u32::from(routed.stats.expanded != best.stats.expanded);
                let check = voxnav::check_path(&world, &agent, &costs, &routed.path);
                assert!(check.is_legal(), "{what}: {check:?}");
                assert_eq!(check.cost, routed.cost, "{what}");
                assert_eq!(routed.path.first(), Some(&start), "{what}");
                assert_eq!(routed.path.last(), Some(&goal), "{what}");
                let (cost, optimum) = (routed.cost.unwrap(), best.cost.unwrap());
                assert!(
                    cost >= optimum && cost * 100 <= optimum * 125,
                    "{what}: {cost} vs {optimum}"
                );
                let ratio = cost as f64 / optimum as f64;
                ratio_sum += ratio;
                worst = worst.max(ratio);
            }
        }
        let mean = ratio_sum / f64::from(found.max(1));
        eprintln!(
            "{name}: {apart} pairs two chunks apart or more, {found} found, {unreachable} \
             unreachable, {through} through the abstraction; cost ratio mean {mean:.4}, worst \
             {worst:.4}"
        );
        assert!(found >= 20, "{name}: only {found} far routes found");
        assert!(
            through * 2 >= found,
            "{name}: {through} of {found} went through the abstraction"
        );
        assert!(mean <= 1.01, "{name}: mean ratio {mean}");
    }
    Ok(())
}

#[test]
fn the_abstraction_of_the_shipped_region_follows_edits_and_reloads_as_a_fresh_build() {
    let region = loaded();
    let chunks = &region.loaded_chunks;
    let costs = MoveCosts::default();
    let mut rng = Rng::new(0x00ea_2000);
    for agent in [Agent::default(), Agent::mob("iron_golem").expect("a mob")] {
        let mut world = region.world.clone();
        world.track_changes(true);
        let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
        let mut hpa = Abstraction::build(&graph, &costs).expect("builds");
        for round in 0..6 {
            let mut apply = |world: &ChunkedWorld, changes: &voxnav::Changes| {
                let update = graph.apply_changes(world, changes).expect("updates");
                hpa.update(&graph, &update).expect("updates");
            };
            change_round(
                &mut world,
                &mut rng,
                chunks,
                (4, round % 3 == 2),
                &mut apply,
            );
            let fresh = Abstraction::build(&graph, &costs).expect("builds");
            let (ours, theirs) = (hpa.edges(&graph), fresh.edges(&graph));
            if let Some(first) = ours.iter().zip(&theirs).position(|(a, b)| a != b) {
                panic!(
                    "{agent:?}, round {round}: edge {first} is {:?} after the updates, {:?} in \
                     a fresh build",
                    ours[first], theirs[first]
                );
            }
            assert_eq!(ours.len(), theirs.len(), "round {round}");
            assert_eq!(hpa.portal_count(), fresh.portal_count(), "round {round}");
            assert_eq!(hpa.cell_count(), fresh.cell_count(), "round {round}");
        }
        // And both match a fresh compile of the changed world (edges name positions, not
        // node numbers, which differ).
        let compiled = NavGraph::compile(&world, &agent).expect("compiles");
        assert_eq!(graph.node_count(), compiled.node_count());
        let fresh = Abstraction::build(&compiled, &costs).expect("builds");
        assert!(hpa.edges(&graph) == fresh.edges(&compiled), "{agent:?}");
    }
}
