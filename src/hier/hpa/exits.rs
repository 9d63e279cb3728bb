//! The transitions out of a cell of the inexact abstraction: its moves to other cells
//! grouped into entrances, each entrance represented by a few of its crossings.
//!
//! Measured (`HIER_ENGINE=hpa valgrind --tool=callgrind --toggle-collect='*Abstraction*build*'
//! long --size 1024 --pairs 1 --edits 0`, one thread): 0.42 G of a build's 5.49 G
//! instructions, reading only the moves that leave the cell (0.60 G through every move).

use glam::IVec3;

use super::{PORTAL_SPACING, Transition};
use crate::graph::{NavGraph, NodeId};
use crate::hier::cell::{CELL_SIDE, Chunk, chunk_of};
use crate::moves::agent::MoveCosts;

/// The last column of a cell along x or z.
const CELL_SIDE_LAST: i32 = CELL_SIDE - 1;

/// The position of a crossing along its border: the coordinate that runs along it (z for a
/// border between cells side by side in x, x for one in z; 0 across a corner, where the
/// border is one column).
fn along_border(from: Chunk, to: Chunk, feet: IVec3) -> i32 {
    match (from[0] == to[0], from[1] == to[1]) {
        (false, true) => feet.z,
        (true, false) => feet.x,
        _ => 0,
    }
}

/// The cells whose exits a node with its feet at `feet` can bear on: its own cell when it
/// stands in a border column, and each cell across a border next to it (an entrance reads
/// the moves along the border on both sides: see [`exits_of`]). None for an inner column.
pub(super) fn facing(feet: IVec3) -> impl Iterator<Item = Chunk> {
    let chunk = chunk_of(feet);
    let side = |local: i32| match local {
        0 => -1..=0,
        CELL_SIDE_LAST => 0..=1,
        _ => 0..=0,
    };
    let (xs, zs) = (
        side(feet.x.rem_euclid(CELL_SIDE)),
        side(feet.z.rem_euclid(CELL_SIDE)),
    );
    let inner = xs == (0..=0) && zs == (0..=0);
    xs.flat_map(move |dx| zs.clone().map(move |dz| [chunk[0] + dx, chunk[1] + dz]))
        .filter(move |_| !inner)
}

/// Whether the walk graph has a move from `a` to `b` and one back: two crossings whose ends
/// are joined so on both sides belong to one entrance (one way only, as down a drop, would
/// let a portal at one end stand for crossings it cannot reach).
fn joined(graph: &NavGraph, a: NodeId, b: NodeId) -> bool {
    graph.has_move(a, b) && graph.has_move(b, a)
}

/// The transitions out of the cell `chunk` whose border nodes are `border`: its moves to
/// other cells grouped into entrances (per neighbour cell, runs of crossings whose sources
/// are joined both ways by a move along the border, and whose targets are too), each
/// entrance represented by one crossing per [`PORTAL_SPACING`] crossings.
pub(super) fn exits_of(
    graph: &NavGraph,
    costs: &MoveCosts,
    chunk: Chunk,
    border: &[NodeId],
) -> Vec<Transition> {
    // Per border node and neighbour cell, its cheapest crossing (ties: the lowest target
    // position), so diagonal crossings count only where no straight one is cheaper. Most
    // border nodes have one: room for as many saves the regrowth (7 M instructions a build).
    let mut crossings: Vec<(Chunk, i32, i32, Transition, IVec3)> = Vec::with_capacity(border.len());
    // Only the moves that leave the cell are read (the general reader decoded every move of
    // a border node, most of them staying inside). The border's order does not matter: no
    // two crossings share a neighbour cell, place along the border and height.
    for &from in border {
        let feet = graph.feet(from);
        let first = crossings.len();
        graph.for_each_move_out_of_chunk(from, costs, |step| {
            let to_chunk = chunk_of(step.feet);
            let transition = Transition {
                from,
                to: step.node,
                cost: step.cost,
            };
            let key = (step.cost, step.feet.to_array());
            if let Some(known) = crossings[first..]
                .iter_mut()
                .find(|known| known.0 == to_chunk)
            {
                if key < (known.3.cost, known.4.to_array()) {
                    known.3 = transition;
                    known.4 = step.feet;
                }
                return;
            }
            let t = along_border(chunk, to_chunk, feet);
            crossings.push((to_chunk, t, feet.y, transition, step.feet));
        });
    }
    crossings.sort_unstable_by_key(|&(to_chunk, t, y, _, _)| (to_chunk, t, y));
    // Runs grow in order along the border; a crossing joins the open run of its neighbour
    // cell whose last crossing is one step before it and joined on both sides. Each
    // crossing's run is noted, and the runs gathered once at the end (a list per run cost an
    // allocation per entrance).
    let mut run_of: Vec<u32> = Vec::with_capacity(crossings.len());
    let mut run_last: Vec<Transition> = Vec::new();
    let mut open: Vec<(Chunk, i32, usize)> = Vec::new();
    for &(to_chunk, t, _, transition, _) in &crossings {
        let joins = open.iter().position(|&(run_chunk, last_t, run)| {
            let last = run_last[run];
            run_chunk == to_chunk
                && last_t + 1 == t
                && joined(graph, last.from, transition.from)
                && joined(graph, last.to, transition.to)
        });
        let run = match joins {
            Some(index) => {
                open[index].1 = t;
                open[index].2
            }
            None => {
                open.push((to_chunk, t, run_last.len()));
                run_last.push(transition);
                run_last.len() - 1
            }
        };
        run_last[run] = transition;
        run_of.push(run as u32);
        // Runs whose last crossing lies two or more steps back can grow no more.
        open.retain(|&(run_chunk, last_t, _)| run_chunk == to_chunk && last_t + 1 >= t);
    }
    // The crossings by run, each run's in order (a counting sort on the run).
    let mut run_first = vec![0; run_last.len() + 1];
    for &run in &run_of {
        run_first[run as usize + 1] += 1;
    }
    for run in 0..run_last.len() {
        run_first[run + 1] += run_first[run];
    }
    let mut fill = run_first.clone();
    // Every place is written below; the crossings' own order only fills them first.
    let mut by_run: Vec<Transition> = crossings.iter().map(|crossing| crossing.3).collect();
    for (&run, crossing) in run_of.iter().zip(&crossings) {
        by_run[fill[run as usize]] = crossing.3;
        fill[run as usize] += 1;
    }
    let mut exits = Vec::new();
    for bounds in run_first.windows(2) {
        let run = &by_run[bounds[0]..bounds[1]];
        // `count` portal pairs at the middles of `count` equal parts of the entrance.
        let count = run.len().div_ceil(PORTAL_SPACING);
        exits.extend((0..count).map(|part| run[(2 * part + 1) * run.len() / (2 * count)]));
    }
    exits.sort_unstable_by_key(|exit| (exit.from, exit.to));
    // Kept per cell for as long as the cell: no room left over from growing.
    exits.shrink_to_fit();
    exits
}
