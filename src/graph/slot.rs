//! A node's record and the encoding of its moves: [`Slot`] (what a search reads of a node),
//! [`Shape`] (a move's rise, kind and jump, stored as a 6-bit code per direction slot), and
//! [`Pricing`] (the fixed part of each slot and shape's cost at one [`MoveCosts`]).

use glam::IVec3;

use super::{NavGraph, NodeId};
use crate::moves::agent::MoveCosts;
use crate::moves::{DIRECTIONS, MoveKind};
use crate::world::TerrainFlags;

/// Move slots per node: the 8 directions of [`DIRECTIONS`], then ladder up and ladder down.
pub(super) const SLOTS: usize = 10;
pub(super) const SLOT_UP: usize = 8;
/// Bits per slot in a node's move word: the shape code, 0 for no move.
pub(super) const CODE_BITS: u32 = 6;
pub(super) const CODE_MASK: u64 = (1 << CODE_BITS) - 1;
/// Shape codes are 1 ..= 63.
pub(super) const MAX_SHAPES: usize = (1 << CODE_BITS) - 1;
/// The `y` of a removed node's slot, and of an empty home slot.
pub(super) const DEAD: u16 = u16::MAX;

/// The direction of each slot.
pub(super) const SLOT_DIRECTIONS: [IVec3; SLOTS] = [
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

/// The bits of [`Slot::out`] that hold moves: [`SLOTS`] codes of [`CODE_BITS`] bits.
pub(crate) const MOVES: u64 = (1 << (SLOTS as u32 * CODE_BITS)) - 1;
/// Where [`Slot::out`] keeps the node's terrain code (3 bits above the moves): 0 for plain
/// terrain, 1 ..= [`COMMON_TERRAINS`] for the graph's table of terrains seen, [`RARE_TERRAIN`]
/// for a terrain kept by id elsewhere.
const TERRAIN_SHIFT: u32 = SLOTS as u32 * CODE_BITS;
const TERRAIN_CODE_MASK: u64 = 0b111;
/// Terrains a graph numbers in its table; later ones are kept by id.
pub(super) const COMMON_TERRAINS: usize = 6;
/// The terrain code of a node whose terrain is kept by id (see [`NavGraph`]'s `rare_terrain`).
pub(super) const RARE_TERRAIN: u8 = 7;
/// The top bit of [`Slot::out`]: entering the node costs more than the move (terrain or an
/// extra cost).
const COSTLY: u64 = 1 << 63;

/// One node, in 10 bytes: its moves (what an expansion reads), its terrain code and whether
/// entering it costs more than the move, and its height (what a relaxation reads of a move's
/// target, to find it in its column and price it). The next node down the column (read only
/// when the home slot is not the target), the position, the terrain (when not plain) and the
/// extra cost live elsewhere (see [`NavGraph`]): the smaller the record, the less memory per
/// feet position (the graph's target is 16 bytes in all, see the module docs) and the fewer
/// cache lines a search touches around each node.
///
/// Why 10 bytes and not the 14 of moves, height and next together: a 14-byte stride costs
/// three instructions per index where 10 (like 16) costs one address computation, and the
/// relaxation indexes a record for every move (+5.8% instructions of graph A* with the 14-byte
/// record, by callgrind on `compare --quick --set long --set short`). Packed to an alignment
/// of 2: the 8-byte word is read unaligned, which costs x86 and arm64 nothing within a cache
/// line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(2))]
pub(crate) struct Slot {
    /// The node's moves: [`SLOTS`] shape codes of [`CODE_BITS`] bits each, slot `i` at bit
    /// `6 i`, 0 for none (see [`MOVES`]); then 3 bits of terrain code and the costly bit.
    pub(crate) out: u64,
    /// Feet y relative to `bounds.min.y`, [`DEAD`] for a removed node or an empty home slot.
    pub(crate) y: u16,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 10);

impl Slot {
    /// A home slot without a node.
    pub(super) const EMPTY: Self = Self::at(DEAD as i32);

    /// A node at local height `y`, plain, its moves not derived yet.
    pub(super) const fn at(y: i32) -> Self {
        Self {
            out: 0,
            y: y as u16,
        }
    }

    /// The node's moves, without the terrain bits.
    #[inline]
    pub(crate) fn moves(self) -> u64 {
        self.out & MOVES
    }

    /// Replaces the node's moves.
    pub(super) fn set_moves(&mut self, word: u64) {
        debug_assert_eq!(word & !MOVES, 0);
        self.out = (self.out & !MOVES) | word;
    }

    /// Whether a move into this node costs only the move itself.
    #[inline]
    pub(crate) fn is_plain(self) -> bool {
        self.out & COSTLY == 0
    }

    pub(super) fn set_plain(&mut self, plain: bool) {
        self.out = (self.out & !COSTLY) | if plain { 0 } else { COSTLY };
    }

    /// The node's terrain code (see [`TERRAIN_SHIFT`]).
    #[inline]
    pub(crate) fn terrain_code(self) -> u8 {
        ((self.out >> TERRAIN_SHIFT) & TERRAIN_CODE_MASK) as u8
    }

    pub(super) fn set_terrain_code(&mut self, code: u8) {
        self.out = (self.out & !(TERRAIN_CODE_MASK << TERRAIN_SHIFT))
            | (u64::from(code) & TERRAIN_CODE_MASK) << TERRAIN_SHIFT;
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
pub(super) fn reference_costs() -> MoveCosts {
    MoveCosts {
        jump: 1,
        ..MoveCosts::default()
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
pub(super) fn base_cost(slot: usize, shape: Shape, costs: &MoveCosts) -> u32 {
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
pub(super) fn slot_of(direction: IVec3) -> Option<usize> {
    SLOT_DIRECTIONS.iter().position(|&d| d == direction)
}

impl NavGraph {
    /// The terrain of node `id`, whose record is `slot`.
    #[inline]
    pub(crate) fn slot_terrain(&self, id: NodeId, slot: Slot) -> TerrainFlags {
        match slot.terrain_code() {
            0 => TerrainFlags::PLAIN,
            RARE_TERRAIN => self
                .rare_terrain
                .get(&id)
                .copied()
                .unwrap_or(TerrainFlags::PLAIN),
            code => self.terrains[usize::from(code) - 1],
        }
    }

    /// Records `terrain` as node `id`'s: a code of the graph's table (numbered as met, like
    /// the move shapes), else kept by id. Leaves `plain` to [`NavGraph::set_extra`].
    pub(super) fn set_terrain(&mut self, id: NodeId, terrain: TerrainFlags) {
        let code = if terrain.is_plain() {
            0
        } else if let Some(index) = self.terrains.iter().position(|&t| t == terrain) {
            index as u8 + 1
        } else if self.terrains.len() < COMMON_TERRAINS {
            self.terrains.push(terrain);
            self.terrains.len() as u8
        } else {
            RARE_TERRAIN
        };
        if code == RARE_TERRAIN {
            self.rare_terrain.insert(id, terrain);
        } else {
            self.forget_terrain(id);
        }
        self.slots[id as usize].set_terrain_code(code);
    }

    /// Drops what is kept of node `id`'s terrain by id (the node is gone or plain now).
    pub(super) fn forget_terrain(&mut self, id: NodeId) {
        if !self.rare_terrain.is_empty() {
            self.rare_terrain.remove(&id);
        }
    }
}
