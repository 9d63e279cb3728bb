//! The compiled walk graph: every valid feet position of a bounded world and the moves
//! between them, derived once by the neighbour generator of [`crate::moves`] and stored in
//! flat arrays, so that engines read moves instead of re-deriving the walking rules.
//!
//! ## What is stored
//!
//! A [`NavGraph`] is compiled for one bounded [`VoxelWorld`] and one [`Agent`]. It calls the
//! one neighbour generator of [`crate::moves`] for every valid feet position, so every rule
//! the generator knows (drops, step-ups, corners, ladders, block kinds, and any rule added
//! there later) flows into the graph with no second statement of the rules.
//!
//! - **Nodes** are the valid feet positions, named by [`NodeId`] (a `u32`). Ids are dense
//!   after a compile and **stable across [`NavGraph::update`]**: a node keeps its id until a
//!   block change removes it; a removed id may be handed to a new node by a later update
//!   (never by the same one). Arrays indexed by id need [`NavGraph::id_bound`] slots.
//! - **Moves** are stored per node as one 6-bit code for each of 10 slots (8 horizontal
//!   directions, ladder up, ladder down): how far the feet rise or fall and the
//!   [`MoveKind`]. The target node is found through its column: every column has a home
//!   slot, the node whose id is the column's index, and the column's other nodes hang off it
//!   in a short chain from the top down, so a move's target is one array read away in the
//!   common case of a column with one feet position. Incoming moves are read from the same
//!   codes of the neighbouring columns, so they always agree with the outgoing ones.
//! - **Costs are priced at query time** from any [`MoveCosts`]: the graph keeps, per node,
//!   the [`TerrainFlags`] and the [`VoxelWorld::extra_cost`] of entering it; a move costs its
//!   horizontal step and climb or fall (or the ladder's rung) plus those terms, exactly as the
//!   generator prices it. So a graph is per world and agent, not per costs: engines may use
//!   any `MoveCosts` on the same graph.
//!
//! Memory: a 16-byte record per id (moves, height, terrain, the next node down the column),
//! so 16 bytes per feet position plus 16 per column without one (its empty home slot); 4 more
//! per node beyond its column's home slot (its x and z; a home slot's follow from its id), and
//! 4 more per id only in worlds with [`VoxelWorld::extra_cost`]s. About 17 bytes per feet
//! position on the default terrain, see [`NavGraph::memory_bytes`].
//!
//! ## A graph that grows by chunk (the shape it is being moved to)
//!
//! A live server loads and unloads chunk columns and edits blocks every tick, so the graph is
//! being reshaped to follow the world column by column instead of spanning fixed bounds:
//!
//! - **Ids.** A node id is `(column slot << 16) | index within the column's block`: each loaded
//!   16 x 16 chunk column owns one slot of a slot table (reused after an unload), and its nodes
//!   are numbered inside the slot. Loading or unloading a column touches only its slot, so ids of
//!   nodes in untouched chunks stay stable, and arrays indexed by id (search records, chase
//!   fields, reachability labels) grow by whole slots.
//! - **Directory.** Chunk coordinates map to slots through a hash map; a move whose target
//!   lies in the next column is resolved through the neighbour's slot (kept per slot for the 8
//!   neighbours), so there are no world bounds to choose up front.
//! - **Seams.** A chunk's nodes and its moves are compiled when it loads; moves that cross into
//!   a loaded neighbour are compiled then for both sides of the seam (the rules read at most
//!   one column across), and dropped when either side unloads. A move toward an unloaded
//!   column does not exist: unloaded cells are neither passable nor standable.
//! - **Cells of the hierarchy and reachability** sit on the same columns: per-column components
//!   joined by portals on the column borders, re-derived for the columns an edit or a load
//!   touches, never for the whole world.
//!
//! Today's graph is still compiled over one bounded world (below); its local updates already
//! follow the locality these rules need, chunk column loads and unloads included:
//! [`NavGraph::apply_changes`] re-derives a loaded or unloaded column
//! ([`Changes::loaded_columns`](crate::Changes::loaded_columns),
//! [`Changes::unloaded_columns`](crate::Changes::unloaded_columns)) and the ring of columns
//! around it, inside the bounds the graph was compiled for; a world of chunk columns whose
//! bounds grew past them ([`ChunkedWorld::with_height`](crate::ChunkedWorld::with_height))
//! needs a new compile until the slot table above lands.
//!
//! On the id space of that table: arrays indexed by id (search records, labels) must stay
//! dense, so a column's slot cannot own a fixed block of 65 536 ids (a column of 16 x 16
//! columns holds a few hundred feet positions: almost all of such a block would be holes).
//! The shape that keeps them dense: ids in pages of 256, a loaded chunk column taking one
//! page for its home slots (one per column, reused through a free list of pages after an
//! unload) and further nodes taking ids from shared pages of chained nodes, each remembering
//! its home; a page table gives a home page's chunk coordinates and the pages of its 8
//! neighbours, so a move across a seam is a table read, and only the search's expansion at a
//! chunk's edge pays it.
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
mod update;

use glam::IVec3;

use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::{DIRECTIONS, Move, MoveKind, body_terrain, for_each_neighbour, terrain_cost};
use crate::world::{Bounds, TerrainFlags, VoxelWorld, WorldWatch};

pub use astar::GraphSearch;
pub use update::GraphUpdate;

/// A node of a [`NavGraph`]: an index into its flat arrays.
pub type NodeId = u32;

/// The id no node has (the end of a column's chain).
pub const NO_NODE: NodeId = u32::MAX;

/// The most columns (`size.x * size.z`) a graph accepts: 16 M columns (4096 x 4096) take
/// 384 MiB of home slots before the first node beyond them.
pub const MAX_GRAPH_COLUMNS: u64 = 1 << 24;

/// The most nodes a graph accepts: 32 M feet positions, about 750 MiB.
pub const MAX_GRAPH_NODES: u64 = 1 << 25;

/// Move slots per node: the 8 directions of [`DIRECTIONS`], then ladder up and ladder down.
const SLOTS: usize = 10;
const SLOT_UP: usize = 8;
/// Bits per slot in a node's move word: the shape code, 0 for no move.
const CODE_BITS: u32 = 6;
const CODE_MASK: u64 = (1 << CODE_BITS) - 1;
/// Shape codes are 1 ..= 63.
const MAX_SHAPES: usize = (1 << CODE_BITS) - 1;
/// The `y` of a removed node's slot, and of an empty home slot.
const DEAD: u16 = u16::MAX;

/// The direction of each slot.
const SLOT_DIRECTIONS: [IVec3; SLOTS] = [
    DIRECTIONS[0],
    DIRECTIONS[1],
    DIRECTIONS[2],
    DIRECTIONS[3],
    DIRECTIONS[4],
    DIRECTIONS[5],
    DIRECTIONS[6],
    DIRECTIONS[7],
    IVec3::Y,
    IVec3::NEG_Y,
];

/// Columns are numbered tile by tile, [`TILE`] x [`TILE`] columns to a tile, and nodes are
/// numbered in column order at compile time: the neighbours of a node along z are then a few
/// hundred bytes away in memory rather than a whole row of the world.
const TILE_SHIFT: u32 = 3;
const TILE: i32 = 1 << TILE_SHIFT;

/// One node, in 16 bytes: its moves (what an expansion reads), and what a relaxation reads of
/// a move's target: its height (to find it in its column), the next node down the column, and
/// whether entering it costs more than the move. A node's position and extra cost live in
/// other arrays (see [`NavGraph`]): the smaller the record, the fewer cache lines a search
/// touches around each node (the 24-byte record with x, z and the extra cost had 27% more
/// L2 read misses on the terrain queries of `benches/graph.rs`, in callgrind's cache model).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    /// The node's moves: [`SLOTS`] shape codes of [`CODE_BITS`] bits each, slot `i` at bit
    /// `6 i`; 0 for none.
    pub(crate) out: u64,
    /// Feet y relative to `bounds.min.y`, [`DEAD`] for a removed node or an empty home slot.
    pub(crate) y: u16,
    /// The terrain of the feet position, priced on every move into it.
    pub(crate) terrain: TerrainFlags,
    /// Whether entering the node costs only the move: plain terrain and no extra cost (one
    /// byte to test in a relaxation rather than two fields).
    pub(crate) plain: bool,
    /// The next node down its column (after the home slot, which may be empty: see
    /// [`NavGraph`]'s `slots`).
    pub(crate) next: NodeId,
}

impl Slot {
    /// A home slot without a node.
    const EMPTY: Self = Self::at(DEAD as i32);

    /// A node at local height `y`, its terrain and moves not derived yet.
    const fn at(y: i32) -> Self {
        Self {
            out: 0,
            y: y as u16,
            terrain: TerrainFlags::PLAIN,
            plain: true,
            next: NO_NODE,
        }
    }

    /// Whether a move into this node costs only the move itself.
    #[inline]
    pub(crate) fn is_plain(self) -> bool {
        self.plain
    }
}

/// How a move's feet change: the rise (negative for a fall), the kind, and whether the move
/// needs a jump (pays [`MoveCosts::jump`], rule 6 of [`crate::moves`]). The direction is the
/// slot's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Shape {
    pub(crate) dy: i32,
    pub(crate) kind: MoveKind,
    pub(crate) jump: bool,
}

/// The costs the graph asks the neighbour generator to price moves at while compiling: the
/// defaults with a `jump` of 1, so that a move's cost tells whether it needs a jump.
fn reference_costs() -> MoveCosts {
    MoveCosts {
        jump: 1,
        ..MoveCosts::default()
    }
}

/// One move of a [`NavGraph`], seen from one end: the node at the other end with its feet
/// position (the target of an outgoing move, the source of an incoming one), and the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GraphMove {
    /// The node at the other end.
    pub node: NodeId,
    /// Its feet position.
    pub feet: IVec3,
    /// The direction of the move (from source to target): one of [`DIRECTIONS`], or `Y` /
    /// `-Y` for a ladder climb.
    pub direction: IVec3,
    /// How the height changed.
    pub kind: MoveKind,
    /// The move's cost at the `MoveCosts` asked for, exactly as
    /// [`neighbours`](crate::engine::neighbours) prices it.
    pub cost: u32,
}

/// The compiled walk graph of one bounded world for one agent. See the
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
    /// Where the world had not loaded its chunks, for errors that name the real cause.
    unloaded: Unloaded,
    agent: Agent,
    bounds: Bounds,
    /// Tiles of [`TILE`] x [`TILE`] columns per row of tiles.
    tiles_per_row: u32,
    /// The local x and z of each tile's first column, by tile (column index `>> 6`): a home
    /// slot's position without a division.
    tile_origins: Vec<[u16; 2]>,
    /// What a relaxation reads of each node, by id (see [`Slot`]). The first `homes` are the
    /// columns' home slots: id `c` belongs to the column of index `c` (see
    /// [`NavGraph::column_index`]) and, when its `y` is not [`DEAD`], is a node of that
    /// column. Each home slot, empty or not, starts its column's chain of further nodes
    /// (linked by `next`, highest feet first). So a column's first node needs no lookup of a
    /// head, and an empty home slot keeps the chain when its node is removed.
    slots: Vec<Slot>,
    /// Local x and z of the nodes beyond the home slots, at `id - homes` (a home slot's
    /// follow from its id).
    chain_xz: Vec<[u16; 2]>,
    /// The world's extra cost of entering each node, by id; empty while every node's is 0,
    /// which spares most worlds 4 bytes per id.
    extra: Vec<u32>,
    /// The number of home slots: the columns, padded to whole tiles.
    homes: usize,
    /// Removed ids beyond the home slots, free for later updates (a home slot is reused only
    /// by its own column).
    free: Vec<NodeId>,
    /// The move shapes seen; code `c` is `shapes[c - 1]`.
    shapes: Vec<Shape>,
    live: usize,
    /// The largest extra cost any node has had (never lowered by an update): searches use it
    /// to bound the costs they can reach.
    pub(crate) max_extra: u32,
    /// Every terrain flag any node has had (never narrowed by an update): with `max_extra`,
    /// what bounds the terms a move into a node can pay.
    pub(crate) terrain_seen: TerrainFlags,
}

/// Which chunks of its world were not loaded ([`VoxelWorld::is_unloaded`]) when the graph was
/// compiled or last updated there: a start or goal there is refused as
/// [`InvalidFeet::Unloaded`](crate::world::InvalidFeet::Unloaded), naming its chunk.
#[derive(Debug, Clone, Default)]
struct Unloaded {
    /// Whether the columns beyond the bounds are unloaded territory.
    outside: bool,
    /// The chunk of the bounds' lowest corner.
    origin: IVec3,
    /// Chunks along each axis.
    dims: IVec3,
    /// One bit per chunk, x fastest, then z, then y; empty when every chunk was loaded.
    bits: Vec<u64>,
}

impl Unloaded {
    /// What `world` has not loaded inside and around `bounds`.
    fn of<W: VoxelWorld + ?Sized>(world: &W, bounds: Bounds) -> Self {
        let origin = bounds.min.div_euclid(IVec3::splat(16));
        let dims = (bounds.max - IVec3::ONE).div_euclid(IVec3::splat(16)) - origin + IVec3::ONE;
        let mut unloaded = Self {
            outside: world.is_unloaded(bounds.min - IVec3::X),
            origin,
            dims,
            bits: Vec::new(),
        };
        for cy in 0..dims.y {
            for cz in 0..dims.z {
                for cx in 0..dims.x {
                    // A cell of the chunk inside the bounds stands for the chunk.
                    let cell = ((origin + IVec3::new(cx, cy, cz)) * 16)
                        .clamp(bounds.min, bounds.max - IVec3::ONE);
                    if world.is_unloaded(cell) {
                        unloaded.mark(cell, true);
                    }
                }
            }
        }
        unloaded
    }

    /// The bit of the chunk holding `cell` (inside the bounds).
    fn index(&self, cell: IVec3) -> usize {
        let c = cell.div_euclid(IVec3::splat(16)) - self.origin;
        ((c.y * self.dims.z + c.z) * self.dims.x + c.x) as usize
    }

    fn mark(&mut self, cell: IVec3, unloaded: bool) {
        if self.bits.is_empty() {
            if !unloaded {
                return;
            }
            let chunks = (self.dims.x * self.dims.y * self.dims.z) as usize;
            self.bits = vec![0; chunks.div_ceil(64)];
        }
        let i = self.index(cell);
        if unloaded {
            self.bits[i / 64] |= 1 << (i % 64);
        } else {
            self.bits[i / 64] &= !(1 << (i % 64));
        }
    }

    /// Whether `cell`, inside the bounds, lies in an unloaded chunk.
    fn contains(&self, cell: IVec3) -> bool {
        let i = self.index(cell);
        self.bits
            .get(i / 64)
            .is_some_and(|word| word >> (i % 64) & 1 != 0)
    }
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

/// What a search needs of a move in one slot with one shape code: the fixed part of its
/// price and the rise of the feet, in one 8-byte entry.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Step {
    /// The price without the target's terms (see [`base_cost`]).
    pub(crate) base: u32,
    /// How far the feet rise (negative for a fall).
    pub(crate) dy: i32,
}

/// Entries of [`Pricing`]'s table: 16 slots of 64 codes, so that any slot and code of a move
/// word (slots up to 10) index it without a bounds check.
const STEP_ENTRIES: usize = 16 << CODE_BITS;

/// The prices of a [`NavGraph`]'s moves at one [`MoveCosts`]: the fixed part of every
/// (slot, shape) pair, looked up per move.
#[derive(Debug, Clone)]
pub(crate) struct Pricing {
    pub(crate) costs: MoveCosts,
    /// `steps[slot * 64 + code]`.
    steps: Box<[Step; STEP_ENTRIES]>,
    /// The largest of `base`.
    pub(crate) max_base: u32,
    /// The shapes priced, code `c` at `c - 1`; `None` for a pricing of no graph.
    shapes: Option<Vec<Shape>>,
}

impl Pricing {
    pub(crate) fn new(graph: &NavGraph, costs: MoveCosts) -> Self {
        let mut steps = Box::new([Step::default(); STEP_ENTRIES]);
        for (slot, row) in steps.chunks_mut(1 << CODE_BITS).take(SLOTS).enumerate() {
            for (code, shape) in graph.shapes.iter().enumerate() {
                row[code + 1] = Step {
                    base: base_cost(slot, *shape, &costs),
                    dy: shape.dy,
                };
            }
        }
        Self {
            costs,
            max_base: steps.iter().map(|step| step.base).max().unwrap_or(0),
            steps,
            shapes: Some(graph.shapes.clone()),
        }
    }

    /// A pricing that fits no graph, to be replaced by the first search.
    pub(crate) fn none(costs: MoveCosts) -> Self {
        Self {
            costs,
            steps: Box::new([Step::default(); STEP_ENTRIES]),
            max_base: 0,
            shapes: None,
        }
    }

    /// Whether this pricing is still right for `graph` at `costs`: the same shapes under the
    /// same codes (an update may add shapes, and graphs number their shapes in the order
    /// their compile met them).
    pub(crate) fn fits(&self, graph: &NavGraph, costs: &MoveCosts) -> bool {
        self.shapes.as_deref() == Some(graph.shapes.as_slice()) && self.costs == *costs
    }

    /// The step of a move in `slot` (at most 15) with shape `code`.
    #[inline]
    pub(crate) fn step(&self, slot: usize, code: u64) -> Step {
        self.steps[((slot << CODE_BITS) | code as usize) & (STEP_ENTRIES - 1)]
    }
}

/// The part of a move's cost fixed by its slot and shape: the horizontal step and the climb
/// or fall, or a ladder's rung, and the jump; the terms of the target are added per node.
fn base_cost(slot: usize, shape: Shape, costs: &MoveCosts) -> u32 {
    let vertical = match shape.kind {
        MoveKind::Walk => 0,
        MoveKind::StepUp(k) => k.saturating_mul(costs.ascend),
        MoveKind::Drop(k) => k.saturating_mul(costs.descend),
    };
    let step = if slot >= SLOT_UP {
        costs.climb
    } else if slot >= 4 {
        costs.diagonal
    } else {
        costs.straight
    };
    let jump = if shape.jump { costs.jump } else { 0 };
    step.saturating_add(vertical).saturating_add(jump)
}

/// The slot of a generated move's direction.
fn slot_of(direction: IVec3) -> Option<usize> {
    SLOT_DIRECTIONS.iter().position(|&d| d == direction)
}

impl NavGraph {
    /// Compiles the walk graph of `world` for `agent`: finds every valid feet position and
    /// asks the neighbour generator of [`crate::moves`] for its moves.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for an agent out of range or one that does not walk;
    /// [`Error::GraphNeedsBounds`] for
    /// a world without [`VoxelWorld::bounds`]; [`Error::GraphTooLarge`] when the world has
    /// more than [`MAX_GRAPH_COLUMNS`] columns, is more than 65 534 cells along an axis, has
    /// more than [`MAX_GRAPH_NODES`] feet positions, or its rules produce moves the graph
    /// cannot encode (more than 63 distinct rises and kinds, or a move outside the 8
    /// directions and the two ladder climbs).
    pub fn compile<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent) -> Result<Self> {
        agent.validate()?;
        agent.require_walking("the compiled walk graph")?;
        let bounds = world.bounds().ok_or(Error::GraphNeedsBounds)?;
        let size = bounds.size();
        if size.x.max(size.y).max(size.z) >= i32::from(DEAD) {
            return Err(Error::GraphTooLarge(format!(
                "the world is {} x {} x {} cells; at most 65534 along each axis",
                size.x, size.y, size.z
            )));
        }
        let columns = size.x as u64 * size.z as u64;
        if columns > MAX_GRAPH_COLUMNS {
            return Err(Error::GraphTooLarge(format!(
                "the world has {columns} columns, more than {MAX_GRAPH_COLUMNS}"
            )));
        }
        let tiles_per_row = (size.x as u32).div_ceil(TILE as u32);
        let tile_rows = (size.z as u32).div_ceil(TILE as u32);
        let homes = (tiles_per_row * tile_rows) as usize * (TILE * TILE) as usize;
        let mut graph = Self {
            source: world.watch().map(|watch| Source {
                version: watch.version(),
                watch,
            }),
            broken: None,
            unloaded: Unloaded::of(world, bounds),
            agent: *agent,
            bounds,
            tiles_per_row,
            tile_origins: (0..tiles_per_row * tile_rows)
                .map(|tile| {
                    let (x, z) = (tile % tiles_per_row, tile / tiles_per_row);
                    [(x << TILE_SHIFT) as u16, (z << TILE_SHIFT) as u16]
                })
                .collect(),
            slots: vec![Slot::EMPTY; homes],
            chain_xz: Vec::new(),
            extra: Vec::new(),
            homes,
            free: Vec::new(),
            shapes: Vec::new(),
            live: 0,
            max_extra: 0,
            terrain_seen: TerrainFlags::PLAIN,
        };
        // Padding columns (past the world's edge in its last tiles) keep empty home slots,
        // never read by a search since no move leaves the world.
        let mut feet = Vec::new();
        // Tile by tile, so that node ids follow the column numbering.
        for tile_z in (0..size.z).step_by(TILE as usize) {
            for tile_x in (0..size.x).step_by(TILE as usize) {
                for z in tile_z..(tile_z + TILE).min(size.z) {
                    for x in tile_x..(tile_x + TILE).min(size.x) {
                        graph.valid_feet_in_column(world, x, z, 0, size.y - 1, &mut feet);
                        let column = graph.column_index(x, z);
                        // Highest first, so the surface, which searches over terrain mostly
                        // look for, takes the home slot.
                        let mut last = column as NodeId;
                        for (i, &y) in feet.iter().rev().enumerate() {
                            let id = if i == 0 {
                                graph.fill_home(column, y)?;
                                last
                            } else {
                                graph.push_node(x, y, z)?
                            };
                            if id != last {
                                graph.slots[last as usize].next = id;
                                last = id;
                            }
                        }
                    }
                }
            }
        }
        for id in 0..graph.slots.len() as NodeId {
            graph.derive_node(world, id)?;
        }
        graph.shrink_to_fit();
        Ok(graph)
    }

    /// Gives back the memory the node arrays hold beyond their length.
    fn shrink_to_fit(&mut self) {
        self.slots.shrink_to_fit();
        self.chain_xz.shrink_to_fit();
        self.extra.shrink_to_fit();
    }

    /// Whether the graph may answer: `Ok` unless an update failed part way
    /// ([`Error::GraphBroken`]) or the world it was compiled from (when that world has a
    /// [`VoxelWorld::watch`]) has changed since the version the graph describes
    /// ([`Error::StaleGraph`]). [`GraphSearch`] asks this before every search.
    ///
    /// # Errors
    /// As above.
    pub fn check_current(&self) -> Result<()> {
        if let Some(cause) = &self.broken {
            return Err(Error::GraphBroken(cause.clone()));
        }
        match &self.source {
            Some(source) if source.watch.version() != source.version => Err(Error::StaleGraph {
                built: source.version,
                now: source.watch.version(),
            }),
            _ => Ok(()),
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
        if !((b.min.x..b.max.x).contains(&feet.x) && (b.min.z..b.max.z).contains(&feet.z)) {
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

    /// The world's bounds at compile time.
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
        if !self.bounds.contains(feet) {
            return None;
        }
        let local = feet - self.bounds.min;
        let id = self.find_in_column(self.column_index(local.x, local.z), local.y as u16);
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
        let (x, z) = self.xz(id);
        self.bounds.min + IVec3::new(x, i32::from(self.slots[id as usize].y), z)
    }

    /// The local x and z of node `id`'s column: from the id for a home slot, else stored.
    #[inline]
    pub(crate) fn xz(&self, id: NodeId) -> (i32, i32) {
        match (id as usize).checked_sub(self.homes) {
            None => self.column_xz(id as usize),
            Some(chained) => {
                let [x, z] = self.chain_xz[chained];
                (i32::from(x), i32::from(z))
            }
        }
    }

    /// The terrain of node `id`'s feet position, as the world reported it.
    #[must_use]
    pub fn terrain(&self, id: NodeId) -> TerrainFlags {
        self.slots[id as usize].terrain
    }

    /// The memory the graph holds, in bytes (its arrays' capacities).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.chain_xz.capacity() * 4
            + self.extra.capacity() * 4
            + self.tile_origins.capacity() * 4
            + self.free.capacity() * 4
            + self.unloaded.bits.capacity() * 8
    }

    /// Calls `visit` with every move out of node `id`, priced at `costs`, in the order of
    /// [`neighbours`](crate::engine::neighbours).
    #[inline]
    pub fn for_each_move(&self, id: NodeId, costs: &MoveCosts, mut visit: impl FnMut(GraphMove)) {
        let Some(&Slot { out: word, .. }) = self.slots.get(id as usize) else {
            return;
        };
        let (x, z) = self.xz(id);
        let from = self.feet(id);
        let mut bits = word;
        while bits != 0 {
            let slot = (bits.trailing_zeros() / CODE_BITS) as usize;
            let code = (bits >> (slot as u32 * CODE_BITS)) & CODE_MASK;
            bits &= !(CODE_MASK << (slot as u32 * CODE_BITS));
            let shape = self.shapes[code as usize - 1];
            let direction = SLOT_DIRECTIONS[slot];
            let to = from + IVec3::new(direction.x, shape.dy, direction.z);
            let column = self.column_index(x + direction.x, z + direction.z);
            let target = self.find_in_column(column, (to.y - self.bounds.min.y) as u16);
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
        if !self.is_live(id) {
            return;
        }
        let (x, z) = self.xz(id);
        let y = i32::from(self.slots[id as usize].y);
        let size = self.bounds.size();
        for (slot, &direction) in SLOT_DIRECTIONS.iter().enumerate() {
            let (sx, sz) = (x - direction.x, z - direction.z);
            if sx < 0 || sz < 0 || sx >= size.x || sz >= size.z {
                continue;
            }
            let mut source = self.column_index(sx, sz) as NodeId;
            while source != NO_NODE {
                let from = self.slots[source as usize];
                let code =
                    (self.slots[source as usize].out >> (slot as u32 * CODE_BITS)) & CODE_MASK;
                if code != 0 {
                    let shape = self.shapes[code as usize - 1];
                    if i32::from(from.y) + shape.dy == y {
                        visit(GraphMove {
                            node: source,
                            feet: self.feet(source),
                            direction,
                            kind: shape.kind,
                            cost: self.price(slot, shape, id, costs),
                        });
                    }
                }
                source = from.next;
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
            terrain_cost(slot.terrain, costs).saturating_add(self.extra_cost(target))
        }
    }

    /// The world's extra cost of entering `id`.
    #[inline]
    pub(crate) fn extra_cost(&self, id: NodeId) -> u32 {
        self.extra.get(id as usize).copied().unwrap_or(0)
    }

    /// The index of the column at local `x`, `z` (both in the world): tile by tile, see
    /// [`TILE_SHIFT`].
    #[inline]
    pub(crate) fn column_index(&self, x: i32, z: i32) -> usize {
        self.row_part(z) + Self::x_part(x)
    }

    /// The part of [`NavGraph::column_index`] that depends on `z` only: the two parts add up
    /// to the index (their bits do not overlap), so a search works out the parts of the
    /// three rows and the three columns around a node once and adds two per move.
    #[inline]
    pub(crate) fn row_part(&self, z: i32) -> usize {
        let z = z as usize;
        let mask = TILE as usize - 1;
        (((z >> TILE_SHIFT) * self.tiles_per_row as usize) << (2 * TILE_SHIFT))
            | ((z & mask) << TILE_SHIFT)
    }

    /// The part of [`NavGraph::column_index`] that depends on `x` only.
    #[inline]
    pub(crate) fn x_part(x: i32) -> usize {
        let x = x as usize;
        ((x >> TILE_SHIFT) << (2 * TILE_SHIFT)) | (x & (TILE as usize - 1))
    }

    /// What to add to the index `column` of a column in the world (wrapping) to get the
    /// index of the column one step west, none, one step east (the first array) plus one step
    /// north, none, one step south (the second): one step within a tile, or to the next tile
    /// from a tile's edge. Offsets past the world's edge give indices of no use (at x = 0 or
    /// z = 0 they wrap around), which no move needs, since none leaves the world.
    #[inline]
    pub(crate) fn neighbour_offsets(&self, column: usize) -> ([usize; 3], [usize; 3]) {
        let mask = TILE as usize - 1;
        let tile = (TILE * TILE) as usize;
        // From the first column (row) of a tile to the last of the previous tile, and back.
        let across_x = tile - mask;
        let across_z = ((self.tiles_per_row as usize) << (2 * TILE_SHIFT)) - (mask << TILE_SHIFT);
        let (x, z) = (column & mask, (column >> TILE_SHIFT) & mask);
        let west = if x == 0 { across_x } else { 1 };
        let east = if x == mask { across_x } else { 1 };
        let north = if z == 0 { across_z } else { TILE as usize };
        let south = if z == mask { across_z } else { TILE as usize };
        (
            [west.wrapping_neg(), 0, east],
            [north.wrapping_neg(), 0, south],
        )
    }

    /// The local `x`, `z` of the column of index `column`: the inverse of
    /// [`NavGraph::column_index`] (outside the world for padding columns).
    #[inline]
    fn column_xz(&self, column: usize) -> (i32, i32) {
        let [x, z] = self.tile_origins[column >> (2 * TILE_SHIFT)];
        let mask = TILE as usize - 1;
        let x = usize::from(x) | (column & mask);
        let z = usize::from(z) | ((column >> TILE_SHIFT) & mask);
        (x as i32, z as i32)
    }

    /// The node of `column` at local height `y` (never [`DEAD`]), or [`NO_NODE`]: the home
    /// slot first, then its chain.
    #[inline]
    pub(crate) fn find_in_column(&self, column: usize, y: u16) -> NodeId {
        let mut id = column as NodeId;
        loop {
            let slot = &self.slots[id as usize];
            if slot.y == y {
                return id;
            }
            id = slot.next;
            if id == NO_NODE {
                return NO_NODE;
            }
        }
    }

    /// Puts a new node at local height `y` into the empty home slot of `column`, keeping the
    /// slot's chain.
    fn fill_home(&mut self, column: usize, y: i32) -> Result<()> {
        self.count_new_node()?;
        let slot = &mut self.slots[column];
        debug_assert_eq!(slot.y, DEAD);
        *slot = Slot {
            next: slot.next,
            ..Slot::at(y)
        };
        self.slots[column].out = 0;
        self.set_extra(column as NodeId, 0);
        Ok(())
    }

    /// Counts one more node, or refuses it past [`MAX_GRAPH_NODES`].
    fn count_new_node(&mut self) -> Result<()> {
        if self.live as u64 >= MAX_GRAPH_NODES {
            return Err(Error::GraphTooLarge(format!(
                "the world has more than {MAX_GRAPH_NODES} valid feet positions"
            )));
        }
        self.live += 1;
        Ok(())
    }

    /// The local heights `y_low ..= y_high` (clamped to the world) of column `x`, `z` that are
    /// valid feet positions, ascending, into `out` (cleared first).
    fn valid_feet_in_column<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        x: i32,
        z: i32,
        y_low: i32,
        y_high: i32,
        out: &mut Vec<i32>,
    ) {
        out.clear();
        let (y_low, y_high) = (y_low.max(0), y_high.min(self.bounds.size().y - 1));
        let height = self.agent.height;
        let min = self.bounds.min;
        let (wx, wz) = (min.x + x, min.z + z);
        // Swimming positions are not in the column bits, nor are a wide body's boxes: an agent
        // that swims or is wider than a block is scanned cell by cell.
        if height > 32 || self.agent.swims_at_surface() || self.agent.width > 1 {
            for y in y_low..=y_high {
                if self
                    .agent
                    .is_valid_position(world, IVec3::new(wx, min.y + y, wz))
                {
                    out.push(y);
                }
            }
            return;
        }
        // Each window of 64 cells starts one below its first feet cell (for the floor) and
        // holds the body of its last: `64 - height` feet positions per window.
        let step = 64 - height as i32;
        let mut first = y_low;
        while first <= y_high {
            let bits = world.column(wx, wz, min.y + first - 1, 64);
            let mut fits = u64::MAX;
            for k in 0..height {
                fits &= bits.passable >> k;
            }
            let count = step.min(y_high - first + 1) as u32;
            // Bit j of `valid`: feet at cell `first - 1 + j`, for j in 1 ..= count.
            let mut valid = (bits.standable << 1) & fits & (((1u64 << count) - 1) << 1);
            while valid != 0 {
                let j = valid.trailing_zeros() as i32;
                valid &= valid - 1;
                out.push(first - 1 + j);
            }
            first += step;
        }
    }

    /// A new node at local `x`, `y`, `z` beyond the home slots (link it into its column's
    /// chain), its moves not derived yet: a free id if there is one, else a new one.
    fn push_node(&mut self, x: i32, y: i32, z: i32) -> Result<NodeId> {
        self.count_new_node()?;
        let xz = [x as u16, z as u16];
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = Slot::at(y);
            self.slots[id as usize].out = 0;
            self.chain_xz[id as usize - self.homes] = xz;
            self.set_extra(id, 0);
            return Ok(id);
        }
        let id = self.slots.len() as NodeId;
        self.slots.push(Slot::at(y));
        self.chain_xz.push(xz);
        if !self.extra.is_empty() {
            self.extra.push(0);
        }
        Ok(id)
    }

    /// Records `extra` as the extra cost of entering `id`, making room for every id's the
    /// first time one is not zero.
    fn set_extra(&mut self, id: NodeId, extra: u32) {
        if extra != 0 && self.extra.is_empty() {
            self.extra = vec![0; self.slots.len()];
        }
        if let Some(stored) = self.extra.get_mut(id as usize) {
            *stored = extra;
        }
        let slot = &mut self.slots[id as usize];
        slot.plain = slot.terrain.is_plain() && extra == 0;
        self.max_extra = self.max_extra.max(extra);
    }

    /// Asks the neighbour generator for the moves of node `id` and records them, with the
    /// terrain and extra cost of the node's own feet position.
    ///
    /// The generator prices each move at [`reference_costs`]; the part of the cost that is
    /// not the slot's step, the kind's climb or fall and the target's terms is the jump, which
    /// goes into the move's shape. Any other difference means the rules price moves in a way
    /// the graph cannot reproduce at other costs, which is refused rather than stored wrong.
    fn derive_node<W: VoxelWorld + ?Sized>(&mut self, world: &W, id: NodeId) -> Result<()> {
        let feet = self.feet(id);
        let mut word = 0u64;
        let mut failure = None;
        let agent = self.agent;
        let reference = reference_costs();
        for_each_neighbour(world, &agent, &reference, feet, |step: Move| {
            if failure.is_some() {
                return;
            }
            match self.encode(world, &reference, feet, step) {
                Ok((slot, code)) => word |= code << (slot as u32 * CODE_BITS),
                Err(error) => failure = Some(error),
            }
        });
        if let Some(error) = failure {
            return Err(error);
        }
        let slot = &mut self.slots[id as usize];
        slot.out = word;
        slot.terrain = body_terrain(world, &agent, feet);
        self.terrain_seen = self.terrain_seen | slot.terrain;
        // After the terrain: this also decides `plain`.
        self.set_extra(id, world.extra_cost(feet));
        Ok(())
    }

    /// The slot and shape code of the generated move `step` from `feet`, priced at
    /// [`reference_costs`].
    fn encode<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        reference: &MoveCosts,
        feet: IVec3,
        step: Move,
    ) -> Result<(usize, u64)> {
        let slot = slot_of(step.direction).ok_or_else(|| {
            Error::GraphTooLarge(format!(
                "the walking rules produced a move in direction {} the graph cannot store",
                step.direction
            ))
        })?;
        let walked = Shape {
            dy: step.feet.y - feet.y,
            kind: step.kind,
            jump: false,
        };
        let entry = terrain_cost(body_terrain(world, &self.agent, step.feet), reference)
            .saturating_add(world.extra_cost(step.feet));
        let without_jump = base_cost(slot, walked, reference).saturating_add(entry);
        let shape = match step.cost.checked_sub(without_jump) {
            Some(0) => walked,
            Some(extra) if extra == reference.jump => Shape {
                jump: true,
                ..walked
            },
            _ => {
                return Err(Error::GraphTooLarge(format!(
                    "the walking rules priced the move {feet} -> {} at {}, which the graph cannot \
                     reproduce (expected {without_jump}, or that plus the jump)",
                    step.feet, step.cost
                )));
            }
        };
        let code = match self.shapes.iter().position(|&s| s == shape) {
            Some(index) => index + 1,
            None if self.shapes.len() < MAX_SHAPES => {
                self.shapes.push(shape);
                self.shapes.len()
            }
            None => {
                return Err(Error::GraphTooLarge(format!(
                    "the walking rules produced more than {MAX_SHAPES} kinds of rise and fall"
                )));
            }
        };
        Ok((slot, code as u64))
    }
}
