use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::IVec3;

use super::{LandmarkTable, NO_BYTE, NO_ROUTE, PackedLandmarks, is_from};
use crate::graph::NavGraph;
use crate::hier::Abstraction;
use crate::moves::agent::{Agent, MoveCosts};
use crate::world::{Block, ChunkedWorld};

/// A small fixed-seed generator.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The reference for [`PackedLandmarks::reach_all`]: what is known of way `way` of the goal
/// side's `slot` in `group`, one way at a time (as the query asked before it took all ways).
fn reach_one<const WAYS: usize>(
    packed: &PackedLandmarks<WAYS>,
    (slot, group): (u32, u32),
    way: usize,
    into: impl Iterator<Item = (u32, u32, u64)>,
    out: &[(u32, u32, u64)],
) -> Option<(u64, u64)> {
    if packed.is_stored(slot) {
        return packed.range(slot, group, way);
    }
    let mut known = (0, u64::MAX);
    if is_from(way) {
        let entry = into
            .filter_map(|(from, from_group, cost)| {
                if packed.is_stored(from) {
                    Some(packed.range(from, from_group, way)?.0 + cost)
                } else {
                    Some(cost)
                }
            })
            .min()?;
        known.0 = entry;
    }
    let mut reached = false;
    for &(next, next_group, cost) in out.iter().filter(|&&(next, _, _)| packed.is_stored(next)) {
        match (packed.range(next, next_group, way), is_from(way)) {
            (None, true) => return None,
            (None, false) => {}
            (Some((low, _)), true) => known.0 = known.0.max(low.saturating_sub(cost)),
            (Some((_, high)), false) => {
                known.1 = known.1.min(high.saturating_add(cost));
                reached = true;
            }
        }
    }
    (is_from(way) || reached).then_some(known)
}

/// Shortest distances from `source` over `edges` (`(from, to, cost)`), by Bellman-Ford.
fn distances(n: usize, edges: &[(usize, usize, u64)], source: usize) -> Vec<Option<u64>> {
    let mut dist = vec![None; n];
    dist[source] = Some(0);
    for _ in 0..n {
        for &(u, v, cost) in edges {
            if let Some(du) = dist[u]
                && dist[v].is_none_or(|dv| du + cost < dv)
            {
                dist[v] = Some(du + cost);
            }
        }
    }
    dist
}

/// Per node, a partner to derive its bound from, as the abstraction chooses them (see
/// `Abstraction::partners`): over the edges cheapest first, the target of one whose source
/// is not derived.
fn partners(n: usize, edges: &[(usize, usize, u64)]) -> Vec<Option<(u32, u32)>> {
    let mut sorted: Vec<_> = edges.iter().map(|&(u, v, c)| (c, u, v)).collect();
    sorted.sort_unstable();
    let (mut keeps, mut partners) = (vec![false; n], vec![None; n]);
    for (cost, u, v) in sorted {
        if u != v && !keeps[v] && partners[v].is_none() && partners[u].is_none() {
            keeps[u] = true;
            partners[v] = Some((u as u32, cost as u32));
        }
    }
    partners
}

/// On random directed graphs with costs large enough that the table quantises (quantum 2
/// and more) and packs with wide steps, every stored byte stands for its distance, and the
/// bound from every node toward random goal sides is at most its true cost to the goal,
/// and not always 0: for nodes with values and for nodes whose bound is derived from a
/// partner's (exactly the partner's less the lift), on the start side and the goal side.
#[test]
fn quantised_bound_is_a_lower_bound_on_random_graphs() {
    const LANDMARKS: usize = 3;
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let mut quanta = Vec::new();
    let (mut positive, mut derived_positive, mut derived_goals) = (0, 0, 0);
    let mut steps = Vec::new();
    for round in 0..40 {
        let n = 30 + (next(&mut state) % 30) as usize;
        let high = 2_000 + next(&mut state) % 60_000;
        let mut edges = Vec::new();
        for u in 0..n {
            for _ in 0..3 {
                let v = (next(&mut state) % n as u64) as usize;
                // Asymmetric costs, as climbing and dropping are.
                edges.push((u, v, 1 + next(&mut state) % high));
            }
            // A cheap one, as a transition across a cell border is: a partner edge.
            let v = (next(&mut state) % n as u64) as usize;
            edges.push((u, v, 1 + next(&mut state) % 300));
        }
        let reversed: Vec<_> = edges.iter().map(|&(u, v, c)| (v, u, c)).collect();
        let mut table = LandmarkTable::<{ 2 * LANDMARKS }>::unknown(n);
        let mut exact = Vec::new();
        for l in 0..LANDMARKS {
            let landmark = (next(&mut state) % n as u64) as usize;
            let from = distances(n, &edges, landmark);
            let to = distances(n, &reversed, landmark);
            for v in 0..n {
                for (way, d) in [(2 * l, from[v]), (2 * l + 1, to[v])] {
                    if let Some(d) = d {
                        table.set(v as u32, way, d);
                    }
                }
            }
            // Each stored value stands for its distance, whatever quantum came later.
            for v in 0..n {
                for (way, d) in [(2 * l, from[v]), (2 * l + 1, to[v])] {
                    let range = table.range(v as u32, way);
                    assert_eq!(range.is_some(), d.is_some(), "round {round}");
                    if let (Some((low, high)), Some(d)) = (range, d) {
                        assert!(
                            low <= d && d <= high,
                            "round {round}: {d} in {low}..={high}"
                        );
                    }
                }
            }
            exact.push((from, to));
        }
        // Groups of 6 nodes, far apart in the graph: wide spans, steps well above 1.
        let groups: Vec<u32> = (0..n as u32).map(|v| v / 6).collect();
        let packed = table.pack(&groups, &partners(n, &edges));
        for (l, (from, to)) in exact.iter().enumerate() {
            for v in (0..n).filter(|&v| packed.is_stored(v as u32)) {
                for (way, d) in [(2 * l, from[v]), (2 * l + 1, to[v])] {
                    let range = packed.range(v as u32, groups[v], way);
                    assert_eq!(range.is_some(), d.is_some(), "round {round}");
                    if let (Some((low, high)), Some(d)) = (range, d) {
                        assert!(low <= d && d <= high, "round {round}: packed");
                        steps.push(high - low + 1);
                    }
                }
            }
        }
        quanta.push(table.quantum());
        // Goal sides: a few nodes, each reaching the goal at some cost or not at all.
        let all: Vec<_> = (0..n).map(|v| distances(n, &edges, v)).collect();
        for _ in 0..5 {
            let mut side: Vec<(Option<u64>, u32)> = (0..4)
                .map(|_| {
                    let p = (next(&mut state) % n as u64) as u32;
                    let rest =
                        (!next(&mut state).is_multiple_of(4)).then(|| next(&mut state) % 40_000);
                    (rest, p)
                })
                .collect();
            // Costs to the goal as a search inside the goal side finds them: none cheaper
            // along an edge to another of its nodes (the derived bounds rely on it).
            for _ in 0..side.len() {
                for &(u, v, cost) in &edges {
                    let ends = side.iter().position(|&(_, p)| p as usize == u);
                    let through = side.iter().filter(|&&(_, p)| p as usize == v);
                    let through = through.filter_map(|&(rest, _)| Some(rest? + cost)).min();
                    if let (Some(at), Some(through)) = (ends, through) {
                        let rest = &mut side[at].0;
                        *rest = Some(rest.map_or(through, |own| own.min(through)));
                    }
                }
            }
            derived_goals += side.iter().filter(|&&(_, p)| !packed.is_stored(p)).count();
            let bound = packed
                .toward(&side, |p| {
                    let out: Vec<_> = edges
                        .iter()
                        .filter(|&&(u, _, _)| u == p as usize)
                        .map(|&(_, v, cost)| (v as u32, groups[v], cost))
                        .collect();
                    // Every edge into the goal side from outside it, as transitions are into
                    // the goal's cell.
                    let into = edges
                        .iter()
                        .filter(|&&(u, v, _)| {
                            v == p as usize && side.iter().all(|&(_, q)| q as usize != u)
                        })
                        .map(|&(u, _, cost)| (u as u32, groups[u], cost));
                    let group = groups[p as usize];
                    let all = packed.reach_all(p, group, into.clone(), &out);
                    // In whole quanta: at most `q - 1` looser than a way at a time.
                    let q = packed.quantum();
                    for (way, &known) in all.iter().enumerate() {
                        let one = reach_one(&packed, (p, group), way, into.clone(), &out);
                        let one = one.map(|(low, high)| if is_from(way) { low } else { high });
                        let (Some(known), Some(one)) = (known, one) else {
                            assert_eq!(known, one, "round {round}: way {way} of {p}");
                            continue;
                        };
                        let slack = if is_from(way) {
                            one - known
                        } else {
                            known - one
                        };
                        assert!(slack < q, "round {round}: way {way} of {p}: {known} {one}");
                    }
                    all
                })
                .expect("a table");
            for (v, dist) in all.iter().enumerate() {
                let truth = side
                    .iter()
                    .filter_map(|&(rest, p)| Some(dist[p as usize]? + rest?))
                    .min();
                let estimate = bound.estimate(&packed, v as u32, &groups);
                if let Some(truth) = truth {
                    assert!(estimate <= truth, "round {round}: {estimate} > {truth}");
                    positive += usize::from(estimate > 0);
                    if let Some((partner, lift)) = packed.partner(v as u32) {
                        // Exactly the partner's bound less the lift: another partner, or
                        // the lift added, shows here.
                        let from_partner = bound.estimate(&packed, partner, &groups);
                        assert_eq!(estimate, from_partner.saturating_sub(lift), "round {round}");
                        derived_positive += usize::from(estimate > 0);
                    }
                }
            }
        }
    }
    assert!(
        quanta.iter().any(|&q| q >= 2),
        "never quantised: {quanta:?}"
    );
    assert!(
        positive > 500,
        "the bound was positive only {positive} times"
    );
    assert!(
        derived_positive > 100 && derived_goals > 50,
        "derived bounds positive {derived_positive} times, {derived_goals} derived goal portals"
    );
    // Bytes standing for many distances each (the quantum times the group's step).
    assert!(
        steps.iter().filter(|&&step| step >= 20).count() * 2 > steps.len(),
        "the bytes were mostly exact"
    );
    assert_eq!(NO_ROUTE, u16::MAX);
}

/// A world 4 x 4 cells wide of random terraces 4 blocks square (1 to 9 high, so cliffs
/// climbed one way only and drops of up to 8), with random holes.
fn random_terraces(state: &mut u64) -> NavGraph {
    let mut world = ChunkedWorld::with_size(IVec3::new(64, 14, 64)).expect("valid size");
    for bx in 0..16 {
        for bz in 0..16 {
            let top = 1 + (next(state) % 9) as i32;
            let low = IVec3::new(bx * 4, 0, bz * 4);
            world
                .fill(low, low + IVec3::new(3, top, 3), Block::Solid)
                .expect("inside");
            if next(state).is_multiple_of(9) {
                world
                    .set(low + IVec3::new(1, top, 2), Block::Air)
                    .expect("inside");
            }
        }
    }
    NavGraph::compile(&world, &Agent::default()).expect("compiles")
}

/// On random terraces at costs that spread a cell's landmark distances over hundreds of
/// units (most cells' bytes then stand for several distances each, some for dozens, and
/// costs past 16 bits quantise), the packed bound from every portal toward random goal
/// cells and costs to the goal is at most the exact abstract route cost (a Dijkstra
/// over the abstraction's edges), and mostly within a few steps of it: reading the lower
/// end where the upper belongs (or the reverse) fails here.
#[test]
fn packed_bound_never_exceeds_the_abstract_distance_on_random_worlds() {
    let mut state = 0x1234_5678_9abc_def1;
    let (mut checked, mut stored, mut tight) = (0, 0, 0);
    let (mut coarse, mut derived, mut portals) = (0, 0, 0);
    for round in 0..6 {
        let graph = random_terraces(&mut state);
        let scale: u32 = if round % 3 == 2 { 40 } else { 4 };
        let costs = MoveCosts {
            straight: 10 * scale,
            diagonal: 14 * scale,
            corner: 17 * scale,
            ascend: 25 * scale,
            descend: scale,
            ..MoveCosts::default()
        };
        let hpa = Abstraction::build(&graph, &costs).expect("builds");
        let slots = hpa.slot_cell.len();
        portals += hpa.portal_count();
        let mut into = vec![Vec::new(); slots];
        for slot in 0..slots as u32 {
            hpa.for_each_edge(slot, true, |next, cost| {
                into[next as usize].push((slot, u64::from(cost)));
            });
        }
        let table = &hpa.landmarks;
        for (slot, &cell) in hpa.slot_cell.iter().enumerate() {
            if let Some((partner, lift)) = table.partner(slot as u32) {
                // A derived slot's partner keeps values and has a transition into it no
                // dearer than the lift (an edge out of it bounds nothing).
                assert!(table.is_stored(partner), "round {round}: slot {slot}");
                let mut into = false;
                hpa.for_each_edge(partner, false, |next, cost| {
                    into |= next == slot as u32 && u64::from(cost) <= lift;
                });
                assert!(into, "round {round}: slot {slot}'s partner {partner}");
                derived += 1;
            }
            if !table.is_stored(slot as u32) {
                continue;
            }
            for way in 0..super::super::landmarks::LANDMARK_WAYS {
                if let Some((low, high)) = table.range(slot as u32, cell, way) {
                    coarse += usize::from(high - low >= 2 * table.quantum());
                }
            }
        }
        for _ in 0..8 {
            let goal_cell = (next(&mut state) % hpa.cells.len() as u64) as u32;
            let cell = &hpa.cells[goal_cell as usize];
            let mut rests: Vec<Option<u64>> = (0..cell.portals.len())
                .map(|_| {
                    (!next(&mut state).is_multiple_of(3))
                        .then(|| next(&mut state) % u64::from(30 * scale))
                })
                .collect();
            // Costs to the goal as a search inside the cell finds them: none cheaper through
            // another portal (the goal side's derived bounds rely on it).
            for from in 0..rests.len() {
                cell.for_each_in_row(from, |to, cost| {
                    if let Some(through) = rests[to].map(|rest| rest + u64::from(cost)) {
                        rests[from] = Some(rests[from].map_or(through, |own| own.min(through)));
                    }
                });
            }
            let side: Vec<(u32, Option<u64>)> = (cell.base..).zip(rests.iter().copied()).collect();
            // The exact cost from every slot to the goal: Dijkstra backwards from the
            // goal side, each portal starting at its cost to the goal.
            let mut exact = vec![u64::MAX; slots];
            let mut heap = BinaryHeap::new();
            for &(slot, rest) in &side {
                if let Some(rest) = rest {
                    exact[slot as usize] = exact[slot as usize].min(rest);
                    heap.push(Reverse((rest, slot)));
                }
            }
            while let Some(Reverse((d, slot))) = heap.pop() {
                if d > exact[slot as usize] {
                    continue;
                }
                for &(from, cost) in &into[slot as usize] {
                    if d + cost < exact[from as usize] {
                        exact[from as usize] = d + cost;
                        heap.push(Reverse((d + cost, from)));
                    }
                }
            }
            let bound = hpa.goal_bound(goal_cell, &rests).expect("a table");
            for (slot, &truth) in exact.iter().enumerate() {
                if truth == u64::MAX {
                    continue;
                }
                let estimate = bound.estimate(table, slot as u32, &hpa.slot_cell);
                assert!(
                    estimate <= truth,
                    "round {round}: slot {slot} bound {estimate} > {truth}"
                );
                checked += 1;
                // Tightness of the stored values' bounds; a derived one is its partner's less
                // the lift (see `quantised_bound_is_a_lower_bound_on_random_graphs`).
                if table.is_stored(slot as u32) {
                    stored += 1;
                    tight += usize::from(truth - estimate <= u64::from(20 * scale));
                }
            }
        }
    }
    assert!(checked > 2_000, "{checked} bounds checked only");
    assert!(
        derived * 4 > portals,
        "{derived} slots derived only of {portals}"
    );
    assert!(
        tight * 4 > stored,
        "{tight} of {stored} bounds of stored slots within 2 steps"
    );
    assert!(
        coarse > 1_000,
        "{coarse} bytes stood for several distances only"
    );
}

/// [`GoalBound::estimate`](super::GoalBound::estimate) of every stored slot on random tables
/// of `WAYS` ways, against a plain reading way by way: the largest `c - s` over the ways,
/// saturating, with `s` the no-route reading for the byte 255.
fn estimate_reads_every_way<const WAYS: usize>(seed: u64) -> usize {
    let mut state = seed;
    let mut positive = 0;
    for round in 0..30 {
        let n = 20 + (next(&mut state) % 40) as usize;
        let mut table = LandmarkTable::<WAYS>::unknown(n);
        let high = 100 + next(&mut state) % 200_000;
        for slot in 0..n as u32 {
            for way in 0..WAYS {
                if !next(&mut state).is_multiple_of(5) {
                    table.set(slot, way, next(&mut state) % high);
                }
            }
        }
        let groups: Vec<u32> = (0..n as u32).map(|slot| slot / 7).collect();
        let packed = table.pack(&groups, &vec![None; n]);
        let side: Vec<(Option<u64>, u32)> = (0..n as u32)
            .filter_map(|slot| {
                let draw = next(&mut state);
                draw.is_multiple_of(4)
                    .then_some((Some(draw / 4 % 500), slot))
            })
            .collect();
        let bound = packed
            .toward(&side, |slot| {
                packed.reach_all(slot, groups[slot as usize], std::iter::empty(), &[])
            })
            .expect("a table");
        for slot in 0..n as u32 {
            let row = &packed.rows[packed.links[slot as usize] as usize];
            let scale = &packed.scales[groups[slot as usize] as usize];
            let best = (0..WAYS)
                .map(|way| {
                    let s = if row[way] == NO_BYTE {
                        bound.no_route[way]
                    } else {
                        scale.base[way]
                            .wrapping_add(u16::from(row[way]).wrapping_mul(scale.step[way]))
                    };
                    bound.constants[way].saturating_sub(s)
                })
                .max()
                .unwrap_or(0);
            let estimate = bound.estimate(&packed, slot, &groups);
            assert_eq!(
                estimate,
                u64::from(best) * packed.quantum(),
                "round {round}: slot {slot}"
            );
            positive += usize::from(best > 0);
        }
    }
    positive
}

#[test]
fn estimate_reads_every_way_in_lanes_and_beyond() {
    // 40 ways (the abstraction's): whole lanes; 10: a lane and two ways after; 6: none whole.
    assert!(estimate_reads_every_way::<40>(0x2545_f491_4f6c_dd1d) > 200);
    assert!(estimate_reads_every_way::<10>(0x9e37_79b9_7f4a_7c15) > 200);
    assert!(estimate_reads_every_way::<6>(0x1234_5678_9abc_def1) > 100);
}
