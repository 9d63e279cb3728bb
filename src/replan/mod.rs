//! Incremental replanning: D* Lite (Koenig and Likhachev, 2002) over the walking-rule graph,
//! and a [`Replanner`] that picks between it and a fresh A* for each replan.
//!
//! D* Lite searches backward, from the goal toward the agent: every node it settles knows its
//! cost *to the goal*. When blocks change, only the nodes whose moves read a changed cell get
//! their costs recomputed, and the search repairs the part of its work those changes touch;
//! as the agent walks, the start moves and the old work stays valid (the `km` term of the
//! keys accounts for the moved heuristic origin). Routes are optimal (the default octile
//! heuristic is admissible and consistent, also with the terrain and ladder rules) and cost
//! exactly what a fresh [`Pathfinder`](crate::Pathfinder) search from the same position costs,
//! for every [`MoveCosts`](crate::MoveCosts) that validation accepts, also when moves cost
//! nothing (free ladder rungs): D* Lite compares distances by cost and then by number of moves,
//! so that positions joined by free moves cannot keep vouching for each other's stale costs.
//!
//! # When it pays, and when it does not
//!
//! Repair work grows with the number of settled nodes whose cost-to-goal a change alters: all
//! those "behind" the change as seen from the goal. Changes near the agent's position, on a
//! route whose detour is short, are repaired in a few dozen to a few hundred expansions, far
//! faster than a fresh search. Changes near the goal, or ones that force a long detour (a
//! trench across the only pass), can alter most of the settled nodes; then the repair costs
//! more than a fresh A*, whose expansions are also cheaper (D* Lite reads the moves into a
//! node as well as out of it, and keeps two costs and a key per node). [`Replanner`]
//! therefore gives each repair a budget of expansions tied to the size of a fresh search;
//! when the repair runs over, it answers with a fresh A* instead (keeping the unfinished
//! repair for the next call, so no work is lost) and reports which method answered. Before
//! any repair it checks an exact shortcut: when no move appeared or got cheaper, and every
//! move of the rest of its last route is still there at the same cost, that rest is still
//! optimal and answers at once (a change to moves the table never read cannot be judged so,
//! and goes to the repair; the table reads the moves around each route it answers). The `replan` example's `--bench` mode measures all of this on
//! the default terrain, on routes of 200+ blocks with 1 to 10 cells changed near the route
//! ahead of the agent, against a fresh A* over the compiled walk graph: repairs expand about
//! a tenth of a fresh search's nodes on average, and the mean is made by the few changes that
//! force a long detour, where a repair re-settles much of a search whose fresh counterpart is
//! itself fast.
//!
//! D* Lite reads its moves from a table of the graph's moves in both directions (see
//! `table.rs`): each node's lists are read from the graph the first time the search asks for
//! them, priced once, and patched from each update's changed nodes, so that an expansion of
//! a node read before costs a few array reads rather than a walk over the neighbouring
//! columns. Reading lazily keeps a plan at about the cost of its own search (a search reads
//! the part of the graph it touches; reading the whole graph up front made a plan three to
//! four times slower than the search), and the table takes 16 bytes per move read. Its queue
//! is a 4-ary heap indexed by node id, whose entries move in place when a key changes.
//!
//! # What a replan re-examines
//!
//! D* Lite runs over the compiled walk graph ([`NavGraph`](crate::graph::NavGraph)): it
//! reads each node's moves and the moves into it from its table of the graph's moves, and a
//! replan first updates the graph from the changed cells
//! ([`NavGraph::update`](crate::graph::NavGraph::update)), which re-derives only the nodes
//! whose moves those cells can affect, and patches the table from the same report. D* Lite then
//! recomputes the cost of exactly the nodes the update reports as changed (a move appeared,
//! vanished or changed its price) and forgets removed ones. This relies on a world's answers
//! being local, as the graph's [local updates](crate::graph#local-updates) describe.

mod dstar;
mod queue;
mod replanner;
mod table;

pub use dstar::DStarLite;
pub use replanner::{Replan, ReplanMethod, Replanner};
