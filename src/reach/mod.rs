//! The reachability index: instant answers for goals that cannot be reached.
//!
//! A search toward an unreachable goal explores everything the agent can reach before it
//! gives up. A [`ReachIndex`] labels the connected regions of a bounded world's valid feet
//! positions once, so that such a query is answered before the search starts, with zero
//! expansions.
//!
//! The regions are labelled with every move treated as undirected. Drops are one-way, so
//! a route may exist in one direction only: **different labels prove** that no route exists
//! (any route would join the two regions), while **equal labels prove nothing** by themselves.
//! Within a region the index also ranks the strongly connected parts in two topological
//! orders of the one-way moves, which proves some one-way cases unreachable too (a goal on a
//! ledge that can only be jumped down from, or across a pit); the search decides the rest.
//!
//! An index belongs to one world and one [`Agent`](crate::Agent). It remembers the world's
//! [`VersionedWorld::version`](crate::world::VersionedWorld::version) at build time; once the world has changed, the index is
//! stale and answers [`Reach::Unknown`] until it is rebuilt ([`ReachIndex::refresh`]), so a
//! stale index never gives a wrong answer. [`Navigator`] rebuilds a stale index lazily, on the
//! next query.
//!
//! A router that keeps a walk graph next to its index follows block edits and chunk column
//! loads and unloads without relabelling the world ([`IndexedRouter::apply_changes`]): the
//! graph reports which nodes appeared, vanished or changed their moves, and the index
//! ([`ReachIndex::apply_update`]) gives each new node a fresh label and joins the regions of
//! every changed move. Regions only ever merge, so a cut leaves them joined ("maybe", and
//! the search decides) while a new bridge joins them at once: the index never calls a
//! reachable goal unreachable. A region any change touched gives up its one-way proof.
//! [`IndexedRouter::build_index`] relabels from scratch for those who want the sharper
//! answers back.
//!
//! ```
//! use voxnav::IVec3;
//! use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions};
//! use voxnav::engine::IndexedRouter;
//! use voxnav::SearchStatus;
//! use voxnav::reach::Navigator;
//!
//! // A floor, and a platform 4 blocks above it: too high to climb onto, and too high to jump
//! // down from (the default agent drops at most 3 blocks).
//! let mut world = ChunkedWorld::with_size(IVec3::new(12, 8, 4))?;
//! world.fill(IVec3::new(0, 0, 0), IVec3::new(11, 0, 3), Block::Solid)?;
//! world.fill(IVec3::new(8, 1, 0), IVec3::new(11, 4, 3), Block::Solid)?;
//!
//! let mut navigator = Navigator::new(Agent::default(), MoveCosts::default())?;
//! navigator.build_index(&world)?;
//! let result = navigator.find_path(
//!     &world,
//!     IVec3::new(0, 1, 0),
//!     IVec3::new(10, 5, 2),
//!     &SearchOptions::default(),
//! )?;
//! assert_eq!(result.status, SearchStatus::Unreachable);
//! assert_eq!(result.stats.expanded, 0);
//! # Ok::<(), voxnav::Error>(())
//! ```

mod edge;
mod index;
mod navigator;
mod slot;

pub use edge::{EdgeRoute, route_toward};
pub use index::{Reach, ReachIndex};
pub use navigator::Navigator;
pub use slot::{IndexSlot, IndexedRouter};
