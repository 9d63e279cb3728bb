//! A picture of a walk graph that does not depend on node ids or compile order, so that a
//! graph kept current by updates can be compared with a fresh compile.

use std::collections::BTreeMap;

use voxnav::MoveCosts;
use voxnav::graph::{GraphMove, NavGraph};

/// One move in a [`Picture`]: the other end's feet, the direction and the cost.
pub type PictureMove = ([i32; 3], [i32; 3], u32);

/// Every node by feet position, with its moves out and its moves in, each sorted.
pub type Picture = BTreeMap<[i32; 3], [Vec<PictureMove>; 2]>;

/// The [`Picture`] of `graph` with moves priced at `costs`. Checks on the way that every
/// node is found again by its feet and that every move's feet are its node's.
pub fn graph_picture(graph: &NavGraph, costs: &MoveCosts) -> Picture {
    let mut moves = Vec::new();
    let list = |moves: &[GraphMove]| {
        let mut list: Vec<_> = moves
            .iter()
            .map(|m| {
                assert_eq!(graph.feet(m.node), m.feet);
                (m.feet.to_array(), m.direction.to_array(), m.cost)
            })
            .collect();
        list.sort_unstable();
        list
    };
    graph
        .nodes()
        .map(|id| {
            assert_eq!(graph.node(graph.feet(id)), Some(id));
            graph.moves(id, costs, &mut moves);
            let out = list(&moves);
            graph.incoming(id, costs, &mut moves);
            (graph.feet(id).to_array(), [out, list(&moves)])
        })
        .collect()
}

/// Panics with the first node (by feet) where the pictures of `updated` and `fresh` differ,
/// and `what`, unless they are the same.
pub fn assert_same_graph(updated: &NavGraph, fresh: &NavGraph, costs: &MoveCosts, what: &str) {
    let (a, b) = (graph_picture(updated, costs), graph_picture(fresh, costs));
    if a == b {
        return;
    }
    let feet = a
        .keys()
        .chain(b.keys())
        .filter(|feet| a.get(*feet) != b.get(*feet))
        .min()
        .expect("the pictures differ somewhere");
    panic!(
        "the updated graph differs from a fresh compile at {feet:?}: {:?} against {:?} (moves \
         out, moves in), {what}",
        a.get(feet),
        b.get(feet)
    );
}
