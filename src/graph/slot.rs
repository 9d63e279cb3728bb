//! A node's record and the encoding of its moves: [`Slot`] (what a search reads of a node),
//! [`Shape`] (a move's rise, kind and jump, stored as a 6-bit code per direction slot), and
//! [`Pricing`] (the fixed part of each slot and shape's cost at one [`MoveCosts`]).

use glam::IVec3;

use super::{NO_NODE, NavGraph, NodeId};
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
    pub(super) const EMPTY: Self = Self::at(DEAD as i32);

    /// A node at local height `y`, its terrain and moves not derived yet.
    pub(super) const fn at(y: i32) -> Self {
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
