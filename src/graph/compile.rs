//! Compiling a [`NavGraph`]: every column scanned for valid feet positions (by column bits
//! where the agent allows, else cell by cell), nodes numbered tile by tile, and each node's
//! moves asked of the neighbour generator and encoded as shape codes.

use glam::IVec3;

use super::columns::{TILE, TILE_SHIFT};
use super::slot::{CODE_BITS, DEAD, MAX_SHAPES, Shape, Slot, base_cost, reference_costs, slot_of};
use super::unloaded::Unloaded;
use super::{MAX_GRAPH_COLUMNS, MAX_GRAPH_NODES, NavGraph, NodeId, Source};
use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::{BoxView, Move, body_terrain, for_each_neighbour, terrain_cost};
use crate::world::{TerrainFlags, VoxelWorld};

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
    /// Puts a new node at local height `y` into the empty home slot of `column`, keeping the
    /// slot's chain.
    pub(super) fn fill_home(&mut self, column: usize, y: i32) -> Result<()> {
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
        let (y_low, y_high) = (y_low.max(0), y_high.min(self.bounds.size().y - 1));
        let height = self.agent.height;
        let min = self.bounds.min;
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

    /// A new node at local `x`, `y`, `z` beyond the home slots (link it into its column's
    /// chain), its moves not derived yet: a free id if there is one, else a new one.
    pub(super) fn push_node(&mut self, x: i32, y: i32, z: i32) -> Result<NodeId> {
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
