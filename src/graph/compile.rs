//! Compiling a [`NavGraph`]: every column scanned for valid feet positions (by column bits
//! where the agent allows, else cell by cell), nodes numbered tile by tile, and each node's
//! moves asked of the neighbour generator and encoded as shape codes.

use glam::IVec3;

use ahash::AHashMap;

use super::columns::{self, CHAIN_END, PAGE, PAGE_SHIFT, Page, PageKind};
use super::slot::{CODE_BITS, DEAD, MAX_SHAPES, Shape, Slot, base_cost, reference_costs, slot_of};
use super::unloaded::Unloaded;
use super::{MAX_GRAPH_COLUMNS, MAX_GRAPH_NODES, NO_NODE, NavGraph, NodeId, Source};
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::{BoxView, Move, body_terrain, for_each_neighbour, terrain_cost};
use crate::world::{Bounds, TerrainFlags, VoxelWorld};

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
        if size.y >= i32::from(DEAD) {
            return Err(Error::GraphTooLarge(format!(
                "the world is {} cells high; at most 65534",
                size.y
            )));
        }
        // The chunk columns the bounds touch, each held unless the world has loaded none of it.
        let (low, high) = if size.x > 0 && size.z > 0 {
            (
                (bounds.min.x >> 4, bounds.min.z >> 4),
                ((bounds.max.x - 1) >> 4, (bounds.max.z - 1) >> 4),
            )
        } else {
            ((0, 0), (-1, -1))
        };
        let chunks = (i64::from(high.0) - i64::from(low.0) + 1).max(0) as u64
            * (i64::from(high.1) - i64::from(low.1) + 1).max(0) as u64;
        if chunks * PAGE as u64 > MAX_GRAPH_COLUMNS {
            return Err(Error::GraphTooLarge(format!(
                "the world spans {chunks} chunk columns, more than {}: compile the columns a \
                 server loads as they load (NavGraph::apply_changes)",
                MAX_GRAPH_COLUMNS / PAGE as u64
            )));
        }
        let mut graph = Self::empty(world, agent, bounds);
        for chunk_z in low.1..=high.1 {
            for chunk_x in low.0..=high.0 {
                if graph.column_present(world, (chunk_x, chunk_z)) {
                    let page = graph.add_page((chunk_x, chunk_z))?;
                    graph.scan_page(world, page)?;
                }
            }
        }
        for id in 0..graph.slots.len() as NodeId {
            if graph.slots[id as usize].y != DEAD {
                graph.derive_node(world, id)?;
            }
        }
        graph.shrink_to_fit();
        Ok(graph)
    }

    /// A graph of `world` (whose bounds are `bounds`) holding no chunk column yet.
    fn empty<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, bounds: Bounds) -> Self {
        Self {
            source: world.watch().map(|watch| Source {
                version: watch.version(),
                watch,
            }),
            broken: None,
            unloaded: Unloaded::of(world, bounds),
            agent: *agent,
            bounds,
            origin: bounds.min,
            pages: vec![Page::VOID],
            directory: AHashMap::new(),
            free_pages: Vec::new(),
            freed_pages: Vec::new(),
            chain_fill: NO_NODE,
            slots: vec![Slot::EMPTY; PAGE],
            next: vec![CHAIN_END; PAGE],
            extra: Vec::new(),
            free: Vec::new(),
            shapes: Vec::new(),
            terrains: Vec::new(),
            rare_terrain: AHashMap::new(),
            live: 0,
            max_extra: 0,
            terrain_seen: TerrainFlags::PLAIN,
        }
    }

    /// Whether `world` has loaded any of chunk column `chunk` within the graph's bounds' height
    /// (a chunk of it that reads as loaded): a world of chunk columns loads a column whole.
    pub(super) fn column_present<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        chunk: (i32, i32),
    ) -> bool {
        let (bottom, top) = (self.bounds.min.y, self.bounds.max.y);
        if bottom >= top {
            return false;
        }
        let (x, z) = (chunk.0.wrapping_mul(16), chunk.1.wrapping_mul(16));
        let mut y = bottom;
        while y < top {
            if !world.is_unloaded(IVec3::new(x, y, z)) {
                return true;
            }
            y = ((y >> 4) + 1) << 4;
        }
        false
    }

    /// Finds the valid feet positions of every column of the home page `page` (empty) and
    /// links them into their columns, their moves not derived yet.
    pub(super) fn scan_page<W: VoxelWorld + ?Sized>(&mut self, world: &W, page: u32) -> Result<()> {
        let mut feet = Vec::new();
        let top = self.bounds.size().y - 1;
        for local in 0..PAGE as NodeId {
            let home = (page << PAGE_SHIFT) | local;
            let (x, z) = self.home_xz(home);
            self.valid_feet_in_column(world, x, z, 0, top, &mut feet);
            // Highest first, so the surface, which searches over terrain mostly look for,
            // takes the home slot.
            let mut last = home;
            for (i, &y) in feet.iter().rev().enumerate() {
                let id = if i == 0 {
                    self.fill_home(home as usize, y)?;
                    last
                } else {
                    self.push_node(y)?
                };
                if id != last {
                    self.next[last as usize] = id;
                    last = id;
                }
            }
            if last != home {
                self.next[last as usize] = home | CHAIN_END;
            }
        }
        Ok(())
    }

    /// Gives chunk column `chunk` a home page of empty home slots and links it with the pages
    /// of the chunk columns around it.
    pub(super) fn add_page(&mut self, chunk: (i32, i32)) -> Result<u32> {
        let x = i64::from(chunk.0) * 16 - i64::from(self.origin.x);
        let z = i64::from(chunk.1) * 16 - i64::from(self.origin.z);
        let reach = 1i64 << 30;
        if x.abs() >= reach || z.abs() >= reach {
            return Err(Error::GraphTooLarge(format!(
                "chunk column ({}, {}) lies more than 2^30 blocks from the graph's origin {}",
                chunk.0, chunk.1, self.origin
            )));
        }
        if (self.directory.len() as u64 + 1) * PAGE as u64 > MAX_GRAPH_COLUMNS {
            return Err(Error::GraphTooLarge(format!(
                "more than {} chunk columns",
                MAX_GRAPH_COLUMNS / PAGE as u64
            )));
        }
        let page = self.take_page()?;
        let mut around = [columns::VOID_PAGE; 9];
        for dz in -1..=1 {
            for dx in -1..=1 {
                let at = ((dx + 1) + 3 * (dz + 1)) as usize;
                if dx == 0 && dz == 0 {
                    around[at] = page;
                } else if let Some(other) = self.page_of_chunk((chunk.0 + dx, chunk.1 + dz)) {
                    around[at] = other;
                    self.pages[other as usize].around[((1 - dx) + 3 * (1 - dz)) as usize] = page;
                }
            }
        }
        self.pages[page as usize] = Page {
            kind: PageKind::Home,
            chunk,
            x: x as i32,
            z: z as i32,
            around,
        };
        self.directory.insert(chunk, page);
        Ok(page)
    }

    /// A page of empty slots: a free one, else a new one.
    fn take_page(&mut self) -> Result<u32> {
        // The lowest free page (the list is kept highest first): new columns fill the id
        // space from below.
        if let Some(page) = self.free_pages.pop() {
            return Ok(page);
        }
        let page = self.pages.len();
        // Ids stay below the chain's end mark.
        if (page as u64 + 1) << PAGE_SHIFT > u64::from(CHAIN_END) {
            return Err(Error::GraphTooLarge(format!(
                "more than {} pages of node ids",
                u64::from(CHAIN_END) >> PAGE_SHIFT
            )));
        }
        grow(&mut self.pages, 1);
        self.pages.push(Page::VOID);
        // Growing by a 32nd rather than doubling: the arrays stay within 3% of what the
        // loaded columns need (memory proportional to them, and under the 16 bytes per feet
        // position of the module docs), at a copy per 32nd.
        grow(&mut self.slots, PAGE);
        self.slots.resize(self.slots.len() + PAGE, Slot::EMPTY);
        grow(&mut self.next, PAGE);
        self.next.resize(self.slots.len(), CHAIN_END);
        if !self.extra.is_empty() {
            grow(&mut self.extra, PAGE);
            self.extra.resize(self.slots.len(), 0);
        }
        Ok(page as u32)
    }

    /// Gives back the memory the node arrays hold beyond their length.
    fn shrink_to_fit(&mut self) {
        self.slots.shrink_to_fit();
        self.next.shrink_to_fit();
        self.extra.shrink_to_fit();
        self.pages.shrink_to_fit();
    }
    /// Puts a new node at local height `y` into the empty home slot of `column`, keeping the
    /// slot's chain.
    pub(super) fn fill_home(&mut self, column: usize, y: i32) -> Result<()> {
        self.count_new_node()?;
        debug_assert_eq!(self.slots[column].y, DEAD);
        // The chain after the home slot stays.
        self.slots[column] = Slot::at(y);
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
    pub(super) fn valid_feet_in_column<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        x: i32,
        z: i32,
        y_low: i32,
        y_high: i32,
        out: &mut Vec<i32>,
    ) {
        out.clear();
        // The world's height now, in stored heights below `DEAD`.
        let (y_low, y_high) = (
            y_low.max(self.bounds.min.y - self.origin.y).max(0),
            y_high
                .min(self.bounds.max.y - 1 - self.origin.y)
                .min(i32::from(DEAD) - 1),
        );
        let height = self.agent.height;
        let min = self.origin;
        let (wx, wz) = (min.x + x, min.z + z);
        // Swimming positions are not in the column bits: an agent that swims is scanned cell
        // by cell. A wider body's boxes are in the column bits of its view of the world.
        if height > 32 || self.agent.swims_at_surface() {
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
            let bits = if self.agent.width > 1 {
                BoxView::new(world, self.agent.width).column(wx, wz, min.y + first - 1, 64)
            } else {
                world.column(wx, wz, min.y + first - 1, 64)
            };
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

    /// A new node at stored height `y`, in a chain page (link it into its column's chain,
    /// whose end holds the home), its moves not derived yet: a free id if there is one, else
    /// the next of the last chain page, else the first of a new chain page.
    pub(super) fn push_node(&mut self, y: i32) -> Result<NodeId> {
        self.count_new_node()?;
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                if self.chain_fill == NO_NODE {
                    let page = self.take_page()?;
                    self.pages[page as usize] = Page {
                        kind: PageKind::Chain,
                        ..Page::VOID
                    };
                    self.chain_fill = page << PAGE_SHIFT;
                }
                let id = self.chain_fill;
                self.chain_fill = if ((id + 1) as usize).is_multiple_of(PAGE) {
                    NO_NODE
                } else {
                    id + 1
                };
                id
            }
        };
        self.slots[id as usize] = Slot::at(y);
        self.next[id as usize] = CHAIN_END;
        self.set_extra(id, 0);
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
        slot.set_plain(slot.terrain_code() == 0 && extra == 0);
        self.max_extra = self.max_extra.max(extra);
    }

    /// Asks the neighbour generator for the moves of node `id` and records them, with the
    /// terrain and extra cost of the node's own feet position.
    ///
    /// The generator prices each move at [`reference_costs`]; the part of the cost that is
    /// not the slot's step, the kind's climb or fall and the target's terms is the jump, which
    /// goes into the move's shape. Any other difference means the rules price moves in a way
    /// the graph cannot reproduce at other costs, which is refused rather than stored wrong.
    pub(super) fn derive_node<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        id: NodeId,
    ) -> Result<()> {
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
        self.slots[id as usize].set_moves(word);
        let terrain = body_terrain(world, &agent, feet);
        self.set_terrain(id, terrain);
        self.terrain_seen = self.terrain_seen | terrain;
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

/// Makes room in `items` for `more` items beyond its length: a 32nd more than it holds
/// (at least `more`) when it is full.
fn grow<T>(items: &mut Vec<T>, more: usize) {
    if items.capacity() - items.len() < more {
        items.reserve_exact((items.len() / 32).max(more));
    }
}
