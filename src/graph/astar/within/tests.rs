//! Tests of the area searches: each against an exhaustive Dijkstra over the same moves.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::IVec3;

use crate::graph::{GraphSearch, NavGraph, NodeId};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::heuristic::{Heuristic, HeuristicKind};
use crate::world::{Block, Bounds, ChunkedWorld};

/// `SplitMix64`: the test's worlds, seeded.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
    fn coord(&mut self, n: i32) -> i32 {
        self.below(n as u64) as i32
    }
}

/// A world 33 to 56 blocks across x and z (three or four chunk columns each way) at an
/// offset from -40 to 8 in each axis: a floor, hills, walls with gaps, ladders, water,
/// doors, fences and slow floors.
fn random_world(rng: &mut Rng) -> ChunkedWorld {
    let size = IVec3::new(33 + rng.coord(24), 7, 33 + rng.coord(24));
    let min = IVec3::new(rng.coord(49) - 40, rng.coord(49) - 40, rng.coord(49) - 40);
    let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).expect("small world");
    for x in 0..size.x {
        for z in 0..size.z {
            let top = [0, 0, 0, 1, 1, 2, 3][rng.below(7) as usize];
            world
                .fill(
                    min + IVec3::new(x, 0, z),
                    min + IVec3::new(x, top, z),
                    Block::Solid,
                )
                .expect("inside");
        }
    }
    for _ in 0..rng.below(4) {
        let (x, z) = (rng.coord(size.x), rng.coord(size.z));
        let along_x = rng.below(2) == 0;
        for i in 0..size.x.max(size.z) {
            let (x, z) = if along_x { (i, z) } else { (x, i) };
            if x < size.x && z < size.z && rng.below(12) != 0 {
                world
                    .fill(
                        min + IVec3::new(x, 1, z),
                        min + IVec3::new(x, 4, z),
                        Block::Solid,
                    )
                    .expect("inside");
            }
        }
    }
    let kinds = [
        Block::Air,
        Block::Water,
        Block::Ladder,
        Block::Door,
        Block::Fence,
        Block::SlowFloor,
    ];
    for _ in 0..size.x * size.z / 6 {
        let at = min + IVec3::new(rng.coord(size.x), 1 + rng.coord(4), rng.coord(size.z));
        let kind = kinds[rng.below(kinds.len() as u64) as usize];
        world.set(at, kind).expect("inside");
    }
    world
}

/// `world`'s graph, the costs of the `world_index`th world (every third one so large that
/// they overflow the narrow records on these worlds) and the graph's live nodes.
fn compiled(world: &ChunkedWorld, world_index: usize) -> (NavGraph, MoveCosts, Vec<NodeId>) {
    let graph = NavGraph::compile(world, &Agent::default()).expect("compiles");
    let costs = if world_index % 3 == 2 {
        MoveCosts {
            straight: 10_000_000,
            diagonal: 14_000_000,
            ..MoveCosts::default()
        }
    } else {
        MoveCosts::default()
    };
    let nodes: Vec<NodeId> = (0..graph.id_bound() as NodeId)
        .filter(|&id| graph.is_live(id))
        .collect();
    (graph, costs, nodes)
}

/// The chunk column of a feet position.
fn chunk(feet: IVec3) -> [i32; 2] {
    [feet.x.div_euclid(16), feet.z.div_euclid(16)]
}

/// Dijkstra from `start` over the moves landing in `area`: every node's cost.
fn dijkstra(
    graph: &NavGraph,
    costs: &MoveCosts,
    start: NodeId,
    area: &[[i32; 2]],
) -> Vec<Option<u64>> {
    let mut best = vec![None; graph.id_bound()];
    let mut heap = BinaryHeap::from([Reverse((0, start))]);
    best[start as usize] = Some(0);
    while let Some(Reverse((g, node))) = heap.pop() {
        if best[node as usize].is_some_and(|known| known < g) {
            continue;
        }
        graph.for_each_move(node, costs, |step| {
            let next = g + u64::from(step.cost);
            if area.contains(&chunk(step.feet))
                && best[step.node as usize].is_none_or(|known| next < known)
            {
                best[step.node as usize] = Some(next);
                heap.push(Reverse((next, step.node)));
            }
        });
    }
    best
}

/// Dijkstra backward to `target` over the moves whose source lies in `area`, on edges
/// listed forward by [`NavGraph::for_each_move`] and reversed here: every node's cost to
/// `target`.
fn dijkstra_to(
    graph: &NavGraph,
    costs: &MoveCosts,
    target: NodeId,
    area: &[[i32; 2]],
) -> Vec<Option<u64>> {
    let mut into: Vec<Vec<(NodeId, u64)>> = vec![Vec::new(); graph.id_bound()];
    for from in (0..graph.id_bound() as NodeId).filter(|&id| graph.is_live(id)) {
        if area.contains(&chunk(graph.feet(from))) {
            graph.for_each_move(from, costs, |step| {
                into[step.node as usize].push((from, u64::from(step.cost)));
            });
        }
    }
    let mut best = vec![None; graph.id_bound()];
    let mut heap = BinaryHeap::from([Reverse((0, target))]);
    best[target as usize] = Some(0);
    while let Some(Reverse((g, node))) = heap.pop() {
        if best[node as usize].is_some_and(|known| known < g) {
            continue;
        }
        for &(from, cost) in &into[node as usize] {
            let next = g + cost;
            if best[from as usize].is_none_or(|known| next < known) {
                best[from as usize] = Some(next);
                heap.push(Reverse((next, from)));
            }
        }
    }
    best
}

/// On random worlds (at negative offsets too, across chunk borders), with the default
/// costs and large ones (wide records): Dijkstra run to its end over 1 to 4 chunk
/// columns, forward from a start and backward to a target (either anywhere, in the area
/// or not), knows every node's cost exactly as an exhaustive Dijkstra over the same moves
/// does (the backward one over the forward moves reversed), and no node it cannot reach.
#[test]
fn exhausting_an_area_either_way_costs_what_dijkstra_over_the_area_costs() {
    let mut rng = Rng(0xe4a_0057);
    let (mut reached, mut unreached, mut wide) = (0, 0, 0);
    for world_index in 0..10 {
        let world = random_world(&mut rng);
        let (graph, costs, nodes) = compiled(&world, world_index);
        let mut search = GraphSearch::new(costs).expect("valid costs");
        for _ in 0..6 {
            let end = nodes[rng.below(nodes.len() as u64) as usize];
            let [x, z] = if rng.below(4) == 0 {
                chunk(graph.feet(nodes[rng.below(nodes.len() as u64) as usize]))
            } else {
                chunk(graph.feet(end))
            };
            let mut area = vec![[x, z]];
            for _ in 0..rng.below(4) {
                let [x, z] = area[rng.below(area.len() as u64) as usize];
                let next = [x + rng.coord(3) - 1, z + rng.coord(3) - 1];
                if !area.contains(&next) {
                    area.push(next);
                }
            }
            let forward = dijkstra(&graph, &costs, end, &area);
            let expanded = search.exhaust_within(&graph, end, &area);
            wide += usize::from(!search.last_narrow);
            let found: Vec<Option<u64>> =
                nodes.iter().map(|&node| search.cost_within(node)).collect();
            let backward = dijkstra_to(&graph, &costs, end, &area);
            let expanded_back = search.exhaust_to_within(&graph, end, &area);
            let found_back: Vec<Option<u64>> =
                nodes.iter().map(|&node| search.cost_within(node)).collect();
            for (index, &node) in nodes.iter().enumerate() {
                let at = graph.feet(node);
                assert_eq!(
                    found[index],
                    forward[node as usize],
                    "from {} to {at} in {area:?}",
                    graph.feet(end)
                );
                assert_eq!(
                    found_back[index],
                    backward[node as usize],
                    "from {at} to {} in {area:?}",
                    graph.feet(end)
                );
                if forward[node as usize].is_some() {
                    reached += 1;
                } else {
                    unreached += 1;
                }
            }
            let count = |best: &[Option<u64>]| best.iter().flatten().count() as u64;
            assert_eq!(
                expanded,
                count(&forward),
                "each node reached is expanded once"
            );
            assert_eq!(expanded_back, count(&backward));
        }
    }
    assert!(
        reached > 2_000 && unreached > 2_000 && wide > 10,
        "{reached} reached, {unreached} not, {wide} wide"
    );
}

/// On random worlds, with the default costs and large ones (whose searches use the wide
/// records), under the octile estimate and none: the search kept to 1 to 4 chunk
/// columns costs what Dijkstra over the moves landing there costs, fails exactly where
/// Dijkstra finds no route, and returns a route of moves landing there whose costs add
/// up to what it reports. Starts lie anywhere, in the area or not.
#[test]
fn search_within_an_area_costs_what_dijkstra_over_the_area_costs() {
    let mut rng = Rng(0x3c0_51de);
    let (mut found, mut cut_off, mut wide) = (0, 0, 0);
    for world_index in 0..12 {
        let world = random_world(&mut rng);
        let (graph, costs, nodes) = compiled(&world, world_index);
        let mut search = GraphSearch::new(costs).expect("valid costs");
        let chunks: Vec<[i32; 2]> = {
            let mut all: Vec<_> = nodes.iter().map(|&id| chunk(graph.feet(id))).collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        for _ in 0..8 {
            // A chunk column holding the start (most often) or any, then up to three
            // more that touch the area, as a window's cells do.
            let start = nodes[rng.below(nodes.len() as u64) as usize];
            let first = if rng.below(4) == 0 {
                chunks[rng.below(chunks.len() as u64) as usize]
            } else {
                chunk(graph.feet(start))
            };
            let mut area = vec![first];
            for _ in 0..rng.below(4) {
                let [x, z] = area[rng.below(area.len() as u64) as usize];
                let next = [x + rng.coord(3) - 1, z + rng.coord(3) - 1];
                if chunks.contains(&next) && !area.contains(&next) {
                    area.push(next);
                }
            }
            let best = dijkstra(&graph, &costs, start, &area);
            let inside: Vec<NodeId> = nodes
                .iter()
                .copied()
                .filter(|&id| area.contains(&chunk(graph.feet(id))))
                .collect();
            for _ in 0..6 {
                let target = inside[rng.below(inside.len() as u64) as usize];
                let kind = if rng.below(2) == 0 {
                    HeuristicKind::Octile
                } else {
                    HeuristicKind::Zero
                };
                let estimator = Heuristic::new(kind).estimator(graph.agent(), &costs);
                let mut route = vec![(0, 0)];
                let within =
                    search.search_within(&graph, (start, target), &area, &estimator, &mut route);
                let expected = if target == start {
                    Some(0)
                } else {
                    best[target as usize]
                };
                let cost = within.map(|_| route.last().map_or(0, |&(_, g)| g));
                assert_eq!(
                    cost,
                    expected,
                    "from {} to {} in {area:?}",
                    graph.feet(start),
                    graph.feet(target)
                );
                if within.is_none() {
                    assert!(route.is_empty(), "no route, yet one written");
                    cut_off += 1;
                    continue;
                }
                found += 1;
                wide += usize::from(!search.last_narrow);
                assert_eq!(route.last().map_or(start, |&(id, _)| id), target);
                let (mut at, mut g) = (start, 0);
                for &(next, cost) in &route {
                    let mut step_cost = None;
                    graph.for_each_move(at, &costs, |step| {
                        if step.node == next {
                            step_cost = Some(u64::from(step.cost));
                        }
                    });
                    let step_cost = step_cost.expect("each step is a move of the graph");
                    assert!(area.contains(&chunk(graph.feet(next))), "left the area");
                    g += step_cost;
                    assert_eq!(g, cost, "the costs along the route add up");
                    at = next;
                }
            }
        }
    }
    assert!(
        found > 200 && cut_off > 10 && wide > 50,
        "{found} found, {cut_off} cut off, {wide} wide"
    );
}
