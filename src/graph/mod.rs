//! The compiled walk graph: every valid feet position of the loaded chunk columns of a world
//! and the moves between them, derived by the neighbour generator of [`crate::moves`] and
//! stored in flat arrays, so that engines read moves instead of re-deriving the walking
//! rules.
//!
//! ## What is stored
//!
//! A [`NavGraph`] is compiled for one [`VoxelWorld`] with bounds (or a world of chunk
//! columns, whose bounds grow as columns load) and one [`Agent`]. It calls the
//! one neighbour generator of [`crate::moves`] for every valid feet position, so every rule
//! the generator knows (drops, step-ups, corners, ladders, block kinds, and any rule added
//! there later) flows into the graph with no second statement of the rules.
//!
//! - **Nodes** are the valid feet positions, named by [`NodeId`] (a `u32`). Ids come in pages
//!   of 256 per chunk column (see below) and are **stable across [`NavGraph::update`] and
//!   [`NavGraph::apply_changes`]**: a node keeps its id until a block change or its column's
//!   unload removes it; a removed id may be handed to a new node by a later update (never by
//!   the same one). Arrays indexed by id need [`NavGraph::id_bound`] slots, which grows as
//!   columns load.
//! - **Moves** are stored per node as one 6-bit code for each of 10 slots (8 horizontal
//!   directions, ladder up, ladder down): how far the feet rise or fall and the
//!   [`MoveKind`]. The target node is found through its column: every column has a home
//!   slot, the node whose id is the column's place in its chunk's page, and the column's
//!   other nodes hang off it
//!   in a short chain from the top down, so a move's target is one array read away in the
//!   common case of a column with one feet position. Incoming moves are read from the same
//!   codes of the neighbouring columns, so they always agree with the outgoing ones.
//! - **Costs are priced at query time** from any [`MoveCosts`]: the graph keeps, per node,
//!   the [`TerrainFlags`] and the [`VoxelWorld::extra_cost`] of entering it; a move costs its
//!   horizontal step and climb or fall (or the ladder's rung) plus those terms, exactly as the
//!   generator prices it. So a graph is per world and agent, not per costs: engines may use
//!   any `MoveCosts` on the same graph.
//!
//! Memory: per id a 10-byte record (moves, terrain code, height; see `Slot`) and 4 bytes
//! for the next node down its column (whose end holds the column's home, so a chained node
//! needs no array of homes), so 14 bytes per feet position plus 14 per column without one
//! (its empty home slot) and per chain id not in use; 4 more per id only in worlds with
//! [`VoxelWorld::extra_cost`]s, and 9 per node whose terrain is not among the first 6 the
//! graph met. Ids are 256 per chunk column held plus the chained nodes (see below), and the
//! arrays grow by a 32nd, so the memory follows the loaded chunk columns, as
//! [`NavGraph::memory_bytes`] counts it (capacities): 14.7 to 16.5 bytes per feet position
//! over the server trace on the default terrain (`cargo run --release --example server`;
//! 16.5 is its first line, 8 columns, where the void page weighs; 16.3 its trough, after
//! unloads), 14.3 on the shipped 1.21.11 save (`examples/reach_edit`). Pages given back by
//! unloads are reused (the lowest first), not returned, so a graph keeps the memory of the
//! most columns it held at once; ids are stable, so nothing is compacted.
//!
//! Why this layout: the 16-byte record of before (moves, height, terrain, plain, next) gave
//! 18.5 to 20.3 bytes in the same trace; a 14-byte record with `next` inside cost +5.8%
//! instructions of graph A* (a stride of 14 takes three instructions per index, and the
//! chain's array in the registers of the relaxation spilled others), the 10-byte record
//! with the chain apart and walked out of line +0.2%, paid for by finding the columns around
//! a chunk's edge once per expansion rather than per move.
//!
//! ## A graph that grows by chunk column
//!
//! A live server loads and unloads chunk columns and edits blocks every tick, so the graph
//! follows the world column by column; there are no x and z bounds to choose up front:
//!
//! - **Pages of ids.** Ids come in pages of 256. A chunk column the graph holds owns one
//!   *home page*: id `page * 256 + 16 z + x` is the home slot of the column at `x`, `z` inside
//!   the chunk. Further nodes of a column (a cave under the surface) take ids from shared
//!   *chain pages*, the last of a column's chain holding its home. Page 0 is
//!   a *void page* of empty home slots standing for every chunk column not held, so a lookup
//!   toward an unloaded neighbour reads "no node" without a test. Arrays indexed by id
//!   (search records, reachability, chase fields) stay dense: 256 ids per loaded chunk column
//!   plus the chained nodes, and they grow with [`NavGraph::id_bound`].
//! - **Directory.** A hash map gives a chunk column's home page; each home page keeps the
//!   pages of the 8 chunk columns around it (the void page for those not held), so a move
//!   across a seam is a table read, paid only by the expansion of a node on a chunk's edge
//!   (one in four on average); inside a chunk the 8 columns around a column are fixed id
//!   offsets.
//! - **Loads and unloads.** [`NavGraph::apply_changes`] follows
//!   [`Changes::loaded_columns`](crate::Changes::loaded_columns) and
//!   [`Changes::unloaded_columns`](crate::Changes::unloaded_columns): a loaded column takes a
//!   home page (a page an unload gave back, else a new one at the end), its nodes are
//!   scanned and their moves derived, and the ring of columns around it (the seam) is
//!   re-derived; an unloaded column's nodes are removed, its page unlinked from its
//!   neighbours and given back for the next update, and the seam re-derived. A move toward
//!   an unloaded column does not exist: unloaded cells are neither passable nor standable.
//!   Nothing else is touched: ids of nodes in untouched chunks stay stable, and no update
//!   compiles the world.
//! - **Compiling** a bounded world ([`NavGraph::compile`]) holds every chunk column the
//!   bounds touch that the world has loaded any of; compiling an empty
//!   [`ChunkedWorld::with_height`](crate::ChunkedWorld::with_height) world gives an empty
//!   graph that grows as columns load. A graph never holds more than
//!   [`MAX_GRAPH_COLUMNS`] / 256 chunk columns, each within 2^30 blocks of the graph's origin
//!   (the corner of the bounds it was compiled with), so that the search's coordinates
//!   (relative to that origin) and their differences fit an `i32`.
//! - **Cells of the hierarchy and reachability** sit on the same columns: per-column
//!   components joined by portals on the column borders, re-derived for the columns an edit
//!   or a load touches, never for the whole world.
//!
//! Why not a fixed block of 65 536 ids per chunk column: arrays indexed by id would be mostly
//! holes (a chunk column holds a few hundred feet positions). Why home pages at all rather
//! than chained ids only: the home slot of a column is found from its position with no
//! lookup, which is what a search's relaxation does for every move.
//!
//! ## Local updates
//!
//! [`NavGraph::update`] (a list of changed cells, for any world) and
//! [`NavGraph::apply_changes`] (a [`ChunkedWorld`](crate::ChunkedWorld)'s
//! [`Changes`](crate::Changes)) re-derive only what the changed cells can affect, which
//! follows from what the neighbour generator reads:
//!
//! - whether `(x, y, z)` is a valid feet position reads the cells `y - 1 ..= y + height - 1`
//!   of its column, so nodes appear or vanish only in a changed cell's column, for feet `y`
//!   in `p.y - height + 1 ..= p.y + 1`;
//! - the moves out of a node read the 9 columns around it from `y - max_drop - 1` to
//!   `y + height + max_step_up - 1` (the generator's window), so they change only for nodes in
//!   the 9 columns around a changed cell with feet in that window;
//! - the terms a node charges for entering it ([`TerrainFlags`] and
//!   [`VoxelWorld::extra_cost`]) read the cells within one block of its feet (lava in the
//!   3 x 3 x 3 cube around them), which the same columns and heights cover.
//!
//! Each changed cell counts as a change of the cells just below and above it as well, since a
//! block may decide more than its own cell (a fence blocks the cell above it). A world whose
//! [`VoxelWorld::extra_cost`] depends on cells further away must compile a new graph instead.
//! The property test in `tests/graph.rs` checks, after each of hundreds of
//! random block changes of every kind, that the updated graph equals a fresh compile, move
//! for move, and that surviving nodes keep their ids.
//!
//! ## The API engines use
//!
//! - [`NavGraph::compile`], [`NavGraph::update`] / [`NavGraph::apply_changes`] (local
//!   updates, returning a [`GraphUpdate`] of added, removed and changed nodes);
//! - [`NavGraph::node`] (feet position to id), [`NavGraph::feet`] (id to feet position),
//!   [`NavGraph::is_live`], [`NavGraph::nodes`], [`NavGraph::node_count`],
//!   [`NavGraph::id_bound`];
//! - [`NavGraph::for_each_move`] / [`NavGraph::moves`] (outgoing) and
//!   [`NavGraph::for_each_incoming`] / [`NavGraph::incoming`] (incoming), each a
//!   [`GraphMove`] with the node at the other end, its feet, the direction, the kind and the
//!   cost at the given `MoveCosts`;
//! - [`GraphSearch`]: A* over the graph with the same [`SearchOptions`](crate::SearchOptions),
//!   [`Goal`](crate::Goal)s and [`SearchResult`](crate::SearchResult) as
//!   [`Pathfinder`](crate::engine::Pathfinder).
//!
//! ```
//! use voxnav::IVec3;
//! use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions};
//! use voxnav::graph::{GraphSearch, NavGraph};
//!
//! let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 3))?;
//! world.fill(IVec3::new(0, 0, 0), IVec3::new(7, 0, 2), Block::Solid)?;
//! world.fill(IVec3::new(4, 1, 0), IVec3::new(7, 1, 2), Block::Solid)?;
//! let mut graph = NavGraph::compile(&world, &Agent::default())?;
//! let start = graph.node(IVec3::new(0, 1, 1)).expect("a valid feet position");
//! assert_eq!(graph.feet(start), IVec3::new(0, 1, 1));
//!
//! let mut search = GraphSearch::new(MoveCosts::default())?;
//! let result = search.find_path(&graph, IVec3::new(0, 1, 1), IVec3::new(7, 2, 1), &SearchOptions::default())?;
//! assert_eq!(result.cost, Some(7 * 10 + 10));
//!
//! // A wall across the room: only the columns around it are re-derived.
//! world.track_changes(true);
//! world.fill(IVec3::new(2, 1, 0), IVec3::new(2, 3, 2), Block::Solid)?;
//! let changes = world.take_changes();
//! let update = graph.apply_changes(&world, &changes)?;
//! assert!(!update.removed.is_empty());
//! let result = search.find_path(&graph, IVec3::new(0, 1, 1), IVec3::new(7, 2, 1), &SearchOptions::default())?;
//! assert!(!result.is_found());
//! # Ok::<(), voxnav::Error>(())
//! ```

mod astar;
mod columns;
mod compile;
mod slot;
mod unloaded;
mod update;

use glam::IVec3;

use crate::error::{Error, Result};
use crate::moves::MoveKind;
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::terrain_cost;
use crate::world::{Bounds, TerrainFlags, VoxelWorld, WorldWatch};

pub use astar::GraphSearch;
pub use update::GraphUpdate;

use ahash::AHashMap;
use columns::Page;
pub(crate) use slot::Pricing;

/// Node ids come in pages of `1 << ID_PAGE_SHIFT`; a chunk column's home slots fill one page
/// (see the module docs), so `id >> ID_PAGE_SHIFT` tells a column's home nodes from others.
pub(crate) const ID_PAGE_SHIFT: u32 = columns::PAGE_SHIFT;
use slot::{CODE_BITS, CODE_MASK, DEAD, SLOT_DIRECTIONS, SLOT_UP, SLOTS, Shape, Slot, base_cost};
use unloaded::Unloaded;

/// A node of a [`NavGraph`]: an index into its flat arrays.
pub type NodeId = u32;

/// The id no node has (the end of a column's chain).
pub const NO_NODE: NodeId = u32::MAX;

/// The most columns a graph holds (256 per chunk column): 16 M columns (65 536 chunk
/// columns) take 256 MiB of home slots before the first node beyond them.
pub const MAX_GRAPH_COLUMNS: u64 = 1 << 24;

/// The most nodes a graph accepts: 32 M feet positions, about 750 MiB.
pub const MAX_GRAPH_NODES: u64 = 1 << 25;

/// One move of a [`NavGraph`], seen from one end: the node at the other end with its feet
/// position (the target of an outgoing move, the source of an incoming one), and the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GraphMove {
    /// The node at the other end.
    pub node: NodeId,
    /// Its feet position.
    pub feet: IVec3,
    /// The direction of the move (from source to target): one of
    /// [`DIRECTIONS`](crate::moves::DIRECTIONS), or `Y` / `-Y` for a ladder climb.
    pub direction: IVec3,
    /// How the height changed.
    pub kind: MoveKind,
    /// The move's cost at the `MoveCosts` asked for, exactly as
    /// [`neighbours`](crate::engine::neighbours) prices it.
    pub cost: u32,
}

/// The compiled walk graph of one world's loaded chunk columns for one agent. See the
/// [module docs](self).
///
/// A graph compiled from a world that gives a [`VoxelWorld::watch`] (a
/// [`ChunkedWorld`](crate::ChunkedWorld)) remembers which world and version it describes:
/// [`GraphSearch`] refuses it once the world has changed without it ([`Error::StaleGraph`]),
/// and updates refuse another world ([`Error::OtherWorld`]) or a change list that cannot cover
/// what changed. After an update fails part way the graph refuses to answer
/// ([`Error::GraphBroken`]) until compiled again.
///
/// Its `Debug` output is a summary (counts, bytes, version), not its arrays.
#[derive(Clone)]
pub struct NavGraph {
    /// The world the graph describes and the version it describes, when the world has a
    /// watch.
    source: Option<Source>,
    /// Why the graph refuses to answer: an update failed part way.
    broken: Option<String>,
    /// Where the world had not loaded its chunks inside the bounds of the compile, for
    /// errors that name the real cause.
    unloaded: Unloaded,
    agent: Agent,
    /// The world's bounds at the last compile or update.
    bounds: Bounds,
    /// What local coordinates are relative to: searches run in them, x and z differences
    /// fit an `i32`, and a node's stored height is its feet `y - origin.y`.
    origin: IVec3,
    /// The pages of ids (see `columns.rs`): page 0 is void, a home page holds one chunk
    /// column's home slots, a chain page further nodes of any columns.
    pages: Vec<Page>,
    /// The home page of each chunk column the graph holds.
    directory: AHashMap<(i32, i32), u32>,
    /// Pages given back by unloaded chunk columns, for the next column to load.
    free_pages: Vec<u32>,
    /// Pages given back by the update running, free from the next one on (an update never
    /// hands out an id it removed).
    freed_pages: Vec<u32>,
    /// The next id never used of the last chain page, [`NO_NODE`] when it is full.
    chain_fill: NodeId,
    /// What a relaxation reads of each node, by id (see [`Slot`]). The home slots of a home
    /// page, empty or not, start their column's chain of further nodes (linked by `next`,
    /// highest feet first): a column's first node needs no lookup of a head, and an empty
    /// home slot keeps the chain when its node is removed.
    slots: Vec<Slot>,
    /// The next node down each id's column; at the end of a chain the end mark and the
    /// column's home (see `columns::CHAIN_END`; the mark alone for a home slot without a
    /// chain and for ids in no column). Apart from the records, since a relaxation reads it
    /// only when the home slot is not the target (see [`Slot`]).
    next: Vec<NodeId>,
    /// The world's extra cost of entering each node, by id; empty while every node's is 0,
    /// which spares most worlds 4 bytes per id.
    extra: Vec<u32>,
    /// Removed ids of chain pages, free for later updates (a home slot is reused only by its
    /// own column).
    free: Vec<NodeId>,
    /// The move shapes seen; code `c` is `shapes[c - 1]`.
    shapes: Vec<Shape>,
    /// The terrains other than plain seen first, numbered like the shapes: a node's terrain
    /// code `c` in `1 ..= 6` is `terrains[c - 1]` (see [`Slot`]).
    terrains: Vec<TerrainFlags>,
    /// The terrain of each node whose terrain is not plain nor in `terrains`.
    rare_terrain: AHashMap<NodeId, TerrainFlags>,
    live: usize,
    /// The largest extra cost any node has had (never lowered by an update): searches use it
    /// to bound the costs they can reach.
    pub(crate) max_extra: u32,
    /// Every terrain flag any node has had (never narrowed by an update): with `max_extra`,
    /// what bounds the terms a move into a node can pay.
    pub(crate) terrain_seen: TerrainFlags,
}

/// The world a [`NavGraph`] describes, watched, and the version it describes.
#[derive(Debug, Clone)]
struct Source {
    watch: WorldWatch,
    version: u64,
}

impl std::fmt::Debug for NavGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = f.debug_struct("NavGraph");
        out.field("nodes", &self.live)
            .field("id_bound", &self.slots.len())
            .field("chunk_columns", &self.directory.len())
            .field("bounds", &self.bounds)
            .field("memory_bytes", &self.memory_bytes())
            .field("shapes", &self.shapes.len());
        if let Some(source) = &self.source {
            out.field("world", &source.watch.id().get())
                .field("version", &source.version);
        }
        if let Some(cause) = &self.broken {
            out.field("broken", cause);
        }
        out.finish_non_exhaustive()
    }
}

impl NavGraph {
    /// Whether the graph may answer: `Ok` unless an update failed part way
    /// ([`Error::GraphBroken`]) or the world it was compiled from (when that world has a
    /// [`VoxelWorld::watch`]) has changed since the version the graph describes
    /// ([`Error::StaleGraph`]). [`GraphSearch`] asks this before every search.
    ///
    /// # Errors
    /// As above.
    pub fn check_current(&self) -> Result<()> {
        self.check_intact()?;
        match &self.source {
            Some(source) if source.watch.version() != source.version => Err(Error::StaleGraph {
                built: source.version,
                now: source.watch.version(),
            }),
            _ => Ok(()),
        }
    }

    /// [`Error::GraphBroken`] when an update failed part way; a graph that trails its world
    /// (changes applied in order, taken before the world's last writes) is intact. What
    /// follows the graph's updates (the hierarchies) asks this, not
    /// [`NavGraph::check_current`]: it reads the graph alone, whatever the world's version.
    pub(crate) fn check_intact(&self) -> Result<()> {
        match &self.broken {
            Some(cause) => Err(Error::GraphBroken(cause.clone())),
            None => Ok(()),
        }
    }

    /// The node at `feet`, or why there is none: outside the bounds across x or z
    /// ([`InvalidFeet::Unloaded`](crate::world::InvalidFeet::Unloaded) when the world called that
    /// territory unloaded, else [`InvalidFeet::OutOfWorld`](crate::world::InvalidFeet::OutOfWorld)),
    /// a body that does not fit the world's height
    /// ([`InvalidFeet::OutsideHeight`](crate::world::InvalidFeet::OutsideHeight)), a position whose
    /// feet, head or floor lay in an unloaded chunk, or else
    /// [`InvalidFeet::NotInGraph`](crate::world::InvalidFeet::NotInGraph).
    ///
    /// # Errors
    /// As above.
    pub fn node_or_reason(&self, feet: IVec3) -> Result<NodeId, crate::world::InvalidFeet> {
        use crate::world::InvalidFeet;
        let b = self.bounds;
        let unloaded = |cell: IVec3| InvalidFeet::Unloaded {
            chunk_x: cell.x.div_euclid(16),
            chunk_z: cell.z.div_euclid(16),
        };
        let outside =
            !((b.min.x..b.max.x).contains(&feet.x) && (b.min.z..b.max.z).contains(&feet.z));
        let held = self.page_of_chunk((feet.x >> 4, feet.z >> 4)).is_some();
        if outside || !held {
            return Err(if self.unloaded.outside {
                unloaded(feet)
            } else {
                InvalidFeet::OutOfWorld
            });
        }
        let head = i64::from(feet.y) + i64::from(self.agent.height.max(1)) - 1;
        if feet.y < b.min.y || head >= i64::from(b.max.y) {
            return Err(InvalidFeet::OutsideHeight {
                min_y: b.min.y,
                max_y: b.max.y,
            });
        }
        if let Some(id) = self.node(feet) {
            return Ok(id);
        }
        let body = (-1..self.agent.height as i32).map(|dy| feet + IVec3::new(0, dy, 0));
        match body
            .filter(|&cell| b.contains(cell))
            .find(|&cell| self.unloaded.contains(cell))
        {
            Some(cell) => Err(unloaded(cell)),
            None => Err(InvalidFeet::NotInGraph),
        }
    }

    /// Whether an update failed part way, leaving the graph unusable until compiled again.
    #[must_use]
    pub fn is_broken(&self) -> bool {
        self.broken.is_some()
    }

    /// The version of its world the graph describes, when the world has a
    /// [`VoxelWorld::watch`].
    #[must_use]
    pub fn world_version(&self) -> Option<u64> {
        self.source.as_ref().map(|source| source.version)
    }

    /// [`Error::OtherWorld`] when `world` is not the world the graph was compiled from (both
    /// known by their watches; a graph of a world without one trusts any world).
    pub(crate) fn check_world<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        what: &'static str,
    ) -> Result<()> {
        let Some(source) = &self.source else {
            return Ok(());
        };
        let given = world.watch().map(|watch| watch.id());
        if given == Some(source.watch.id()) {
            Ok(())
        } else {
            Err(Error::OtherWorld {
                what,
                built: source.watch.id().get(),
                given: given.map(crate::world::WorldId::get),
            })
        }
    }

    /// The agent the graph was compiled for.
    #[must_use]
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The world's bounds at the last compile or update (a world of chunk columns: the box of
    /// the columns it has loaded). The graph holds the chunk columns it found loaded, not
    /// the box.
    #[must_use]
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// The number of nodes (valid feet positions).
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.live
    }

    /// One more than the largest id ever given: the length of an array indexed by
    /// [`NodeId`].
    #[must_use]
    pub fn id_bound(&self) -> usize {
        self.slots.len()
    }

    /// Whether `id` names a node (it is below [`NavGraph::id_bound`] and was not removed).
    #[inline]
    #[must_use]
    pub fn is_live(&self, id: NodeId) -> bool {
        self.slots
            .get(id as usize)
            .is_some_and(|slot| slot.y != DEAD)
    }

    /// Every node's id, in increasing order.
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.slots.len() as NodeId).filter(|&id| self.slots[id as usize].y != DEAD)
    }

    /// The node at the feet position `feet`, if it is a valid feet position of the graph.
    #[inline]
    #[must_use]
    pub fn node(&self, feet: IVec3) -> Option<NodeId> {
        let page = self.page_of_chunk((feet.x >> 4, feet.z >> 4))?;
        let y = u16::try_from(i64::from(feet.y) - i64::from(self.origin.y)).ok()?;
        if y == DEAD {
            return None;
        }
        let home = (page << columns::PAGE_SHIFT) | ((feet.z & 15) << 4 | (feet.x & 15)) as NodeId;
        let id = self.find_in_column(home as usize, y);
        (id != NO_NODE).then_some(id)
    }

    /// The feet position of node `id`. For an id that is not live (see
    /// [`NavGraph::is_live`]) the answer is meaningless, though never a panic for ids below
    /// [`NavGraph::id_bound`].
    ///
    /// # Panics
    /// When `id >= self.id_bound()`.
    #[inline]
    #[must_use]
    pub fn feet(&self, id: NodeId) -> IVec3 {
        self.origin + self.local_feet(id)
    }

    /// The feet position of node `id` relative to the origin: what searches run on.
    #[inline]
    pub(crate) fn local_feet(&self, id: NodeId) -> IVec3 {
        let (x, z) = self.xz(id);
        IVec3::new(x, i32::from(self.slots[id as usize].y), z)
    }

    /// The local x and z of node `id`'s column.
    #[inline]
    pub(crate) fn xz(&self, id: NodeId) -> (i32, i32) {
        self.home_xz(self.home_of(id))
    }

    /// The terrain of node `id`'s feet position, as the world reported it.
    #[must_use]
    pub fn terrain(&self, id: NodeId) -> TerrainFlags {
        self.slot_terrain(id, self.slots[id as usize])
    }

    /// The memory the graph holds, in bytes (its arrays' capacities).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.next.capacity() * 4
            + self.extra.capacity() * 4
            + self.pages.capacity() * std::mem::size_of::<Page>()
            // A hash map holds a power of two of buckets, at most 7 in 8 of them usable: per
            // bucket the key, the page and a control byte, plus a group of control bytes.
            + match self.directory.capacity() {
                0 => 0,
                usable => (usable * 8 / 7).next_power_of_two() * 13 + 16,
            }
            + (self.free_pages.capacity() + self.freed_pages.capacity()) * 4
            + self.free.capacity() * 4
            + self.unloaded.bits.capacity() * 8
            // An entry: the id, the terrain (padded to 8) and a control byte.
            + self.rare_terrain.capacity() * 9
            + self.terrains.capacity()
    }

    /// Calls `visit` with every move out of node `id`, priced at `costs`, in the order of
    /// [`neighbours`](crate::engine::neighbours).
    #[inline]
    pub fn for_each_move(&self, id: NodeId, costs: &MoveCosts, visit: impl FnMut(GraphMove)) {
        let Some(word) = self.slots.get(id as usize).map(|slot| slot.moves()) else {
            return;
        };
        self.visit_slots(id, self.home_of(id), word, costs, visit);
    }

    /// Decodes, prices and visits the moves of node `id` (whose column's home is `home`) that
    /// `bits`, its moves word or a part of it, holds, in slot order: the one decoder of
    /// [`NavGraph::for_each_move`] and the crate's readers of a part of the moves.
    #[inline]
    pub(crate) fn visit_slots(
        &self,
        id: NodeId,
        home: NodeId,
        mut bits: u64,
        costs: &MoveCosts,
        mut visit: impl FnMut(GraphMove),
    ) {
        let from = self.feet(id);
        while bits != 0 {
            let slot = (bits.trailing_zeros() / CODE_BITS) as usize;
            let code = (bits >> (slot as u32 * CODE_BITS)) & CODE_MASK;
            bits &= !(CODE_MASK << (slot as u32 * CODE_BITS));
            let shape = self.shapes[code as usize - 1];
            let direction = SLOT_DIRECTIONS[slot];
            let to = from + IVec3::new(direction.x, shape.dy, direction.z);
            let column = self.home_toward(home, direction.x, direction.z);
            let target = self.find_in_column(column as usize, (to.y - self.origin.y) as u16);
            if target == NO_NODE {
                continue;
            }
            visit(GraphMove {
                node: target,
                feet: to,
                direction,
                kind: shape.kind,
                cost: self.price(slot, shape, target, costs),
            });
        }
    }

    /// The moves out of node `id`, priced at `costs`, written into `out` (cleared first).
    pub fn moves(&self, id: NodeId, costs: &MoveCosts, out: &mut Vec<GraphMove>) {
        out.clear();
        self.for_each_move(id, costs, |step| out.push(step));
    }

    /// Calls `visit` with every move into node `id`, priced at `costs`: `node` and `feet` of
    /// each [`GraphMove`] are the move's source.
    pub fn for_each_incoming(
        &self,
        id: NodeId,
        costs: &MoveCosts,
        mut visit: impl FnMut(GraphMove),
    ) {
        // The slot whose direction is the opposite of each slot's (x and z): the column a
        // move in a slot comes from is there; ladders (up, down) come from the column itself.
        const OPPOSITE: [usize; SLOTS] = {
            let mut opposite = [0; SLOTS];
            let mut slot = 0;
            while slot < SLOTS {
                let d = SLOT_DIRECTIONS[slot];
                let mut other = 0;
                while SLOT_DIRECTIONS[other].x != -d.x || SLOT_DIRECTIONS[other].z != -d.z {
                    other += 1;
                }
                opposite[slot] = other;
                slot += 1;
            }
            opposite
        };
        if !self.is_live(id) {
            return;
        }
        let home = self.home_of(id);
        let y = i32::from(self.slots[id as usize].y);
        // The columns around found once, and the terms every move into `id` pays priced
        // once (each per slot before: about 600 instructions per call, by callgrind on `long
        // --size 1024`, see `hier/hpa/search.rs`).
        let around = self.around(home);
        let entry = self.entry_cost(id, costs);
        for (slot, &direction) in SLOT_DIRECTIONS.iter().enumerate() {
            // A home id of a column, which fits a node id.
            let mut source = around[OPPOSITE[slot]] as NodeId;
            while source & columns::CHAIN_END == 0 {
                let from = self.slots[source as usize];
                let code = (from.out >> (slot as u32 * CODE_BITS)) & CODE_MASK;
                if code != 0 {
                    let shape = self.shapes[code as usize - 1];
                    if i32::from(from.y) + shape.dy == y {
                        visit(GraphMove {
                            node: source,
                            feet: self.feet(source),
                            direction,
                            kind: shape.kind,
                            cost: base_cost(slot, shape, costs).saturating_add(entry),
                        });
                    }
                }
                source = self.next[source as usize];
            }
        }
    }

    /// The moves into node `id`, priced at `costs`, written into `out` (cleared first).
    pub fn incoming(&self, id: NodeId, costs: &MoveCosts, out: &mut Vec<GraphMove>) {
        out.clear();
        self.for_each_incoming(id, costs, |step| out.push(step));
    }

    /// The cost of a move in `slot` of `shape` into `target`.
    #[inline]
    fn price(&self, slot: usize, shape: Shape, target: NodeId, costs: &MoveCosts) -> u32 {
        base_cost(slot, shape, costs).saturating_add(self.entry_cost(target, costs))
    }

    /// The terms every move into `target` pays: its terrain and the world's extra cost.
    #[inline]
    pub(crate) fn entry_cost(&self, target: NodeId, costs: &MoveCosts) -> u32 {
        let slot = self.slots[target as usize];
        if slot.is_plain() {
            0
        } else {
            terrain_cost(self.slot_terrain(target, slot), costs)
                .saturating_add(self.extra_cost(target))
        }
    }

    /// The world's extra cost of entering `id`.
    #[inline]
    pub(crate) fn extra_cost(&self, id: NodeId) -> u32 {
        self.extra.get(id as usize).copied().unwrap_or(0)
    }
}
