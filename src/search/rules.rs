//! The move sources that read the rules from the world on the fly: [`Walking`] (the walking
//! rules of `moves`) and [`Free`] (fliers and swimmers: 26 neighbours, the box rule), each
//! with the record table it is searched with.

use glam::IVec3;

use super::cell_records::CellRecords;
use super::cells::{ARRIVAL_MASK, Neighbourhood, Record};
use super::core::{Landing, MoveSource, Successor};
use super::nodes::PositionTable;
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::{
    FREE_ARRIVALS, FREE_DIRECTIONS, NO_ARRIVAL, free_moves_1, free_moves_and_occupancy,
    free_step_costs, free_target_cost, occupancy_mask, undominated,
};
use crate::moves::{Expansion, MoveBuffer, WalkingMoves};
use crate::world::VoxelWorld;
use crate::world::key::in_key_range;

/// Whether a search in `world` may meet positions outside the key range: worlds whose
/// bounds lie inside it cannot produce unpackable positions.
fn may_leave_keys<W: VoxelWorld + ?Sized>(world: &W) -> bool {
    world
        .bounds()
        .is_none_or(|b| !(in_key_range(b.min) && in_key_range(b.max - IVec3::ONE)))
}

/// The walking rules, through a reused move buffer: their generator has many exits, and a
/// plain loop over its output keeps the per-move work in one place. Searched with a
/// [`PositionTable`].
pub(crate) struct Walking<'w, W: ?Sized> {
    world: &'w W,
    agent: Agent,
    costs: MoveCosts,
    buffer: MoveBuffer,
    /// Whether moves may leave the key range (see [`may_leave_keys`]).
    check_keys: bool,
}

impl<'w, W: VoxelWorld + ?Sized> Walking<'w, W> {
    pub(crate) fn new(world: &'w W, agent: Agent, costs: MoveCosts) -> Self {
        Self {
            world,
            agent,
            costs,
            buffer: MoveBuffer::default(),
            check_keys: may_leave_keys(world),
        }
    }
}

impl<W: VoxelWorld + ?Sized> MoveSource<PositionTable> for Walking<'_, W> {
    /// The target feet position.
    type Landing = IVec3;

    #[inline]
    fn feet(&self, table: &PositionTable, node: u32) -> IVec3 {
        table.node(node).feet()
    }

    /// The moves from `feet`; targets outside the key range are left out.
    #[expect(
        clippy::inline_always,
        reason = "the walker's whole expansion belongs in the search loop, where the compiler did not always put it"
    )]
    #[inline(always)]
    fn expand(
        &mut self,
        table: &mut PositionTable,
        _: u32,
        _: super::nodes::Node,
        feet: IVec3,
        mut relax: impl FnMut(&mut PositionTable, Successor<IVec3, (), IVec3>) -> bool,
    ) {
        WalkingMoves.collect(self.world, &self.agent, &self.costs, feet, &mut self.buffer);
        for step in self.buffer.as_slice() {
            if (!self.check_keys || in_key_range(step.feet))
                && !relax(
                    table,
                    Successor {
                        at: step.feet,
                        landing: step.feet,
                        cost: step.cost,
                        via: (),
                    },
                )
            {
                return;
            }
        }
    }
}

/// [`FREE_DIRECTIONS`] and [`FREE_ARRIVALS`] padded to 32 entries, so that a move number
/// masked to 5 bits needs no bounds check.
const DIRECTIONS: [IVec3; 32] = {
    let mut out = [IVec3::ZERO; 32];
    let mut i = 0;
    while i < 26 {
        out[i] = FREE_DIRECTIONS[i];
        i += 1;
    }
    out
};
const ARRIVALS: [u8; 32] = {
    let mut out = [NO_ARRIVAL as u8; 32];
    let mut i = 0;
    while i < 26 {
        out[i] = FREE_ARRIVALS[i];
        i += 1;
    }
    out
};

/// The flying and swimming rules: the legal moves from a position as a bitmask, less the
/// moves its parent dominates (see [`crate::moves::fly::dominated_moves`]). Searched with a
/// [`CellRecords`] table, whose records keep the arrival code the dominance reads.
pub(crate) struct Free<'w, W: ?Sized> {
    world: &'w W,
    agent: Agent,
    /// The cost of each move before the world's extra cost, padded to 32 entries so that a
    /// move number masked to 5 bits needs no bounds check.
    steps: [u32; 32],
    /// The moves the parent may dominate, per arrival code.
    dominated: [u32; 27],
    /// [`crate::moves::fly::parent_masks_1`] of `dominated`, for a body one cell tall.
    parent_masks: [[u32; 32]; 27],
}

impl<'w, W: VoxelWorld + ?Sized> Free<'w, W> {
    pub(crate) fn new(
        world: &'w W,
        agent: Agent,
        costs: &MoveCosts,
        dominated: [u32; 27],
        parent_masks: &[[u32; 32]; 27],
    ) -> Self {
        let steps = free_step_costs(costs);
        Self {
            world,
            agent,
            steps: std::array::from_fn(|i| steps.get(i).copied().unwrap_or(0)),
            dominated,
            parent_masks: *parent_masks,
        }
    }

    /// The world searched.
    pub(crate) fn world(&self) -> &'w W {
        self.world
    }

    /// The moves from `feet`, entered from its parent by the step of the arrival code
    /// `arrival` ([`NO_ARRIVAL`] for the start): bit `i` for the move
    /// [`FREE_DIRECTIONS`]`[i]`.
    #[inline]
    fn moves(&self, feet: IVec3, arrival: usize) -> u32 {
        if self.agent.height == 1 {
            // The occupancy mask of a one-tall body has 27 bits.
            let occupancy = occupancy_mask(self.world, &self.agent, feet) as u32;
            free_moves_1(occupancy, &self.parent_masks[arrival])
        } else {
            let (legal, occupancy) = free_moves_and_occupancy(self.world, &self.agent, feet);
            undominated(
                legal,
                occupancy,
                self.agent.height,
                arrival,
                self.dominated[arrival],
            )
        }
    }
}

/// A flier's move: its number in [`FREE_DIRECTIONS`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct FreeMove(usize);

impl Landing for FreeMove {
    #[inline]
    fn feet(self, from: IVec3) -> IVec3 {
        from + DIRECTIONS[self.0 & 31]
    }
}

impl<'c, R: Record, W: VoxelWorld + ?Sized> MoveSource<CellRecords<'c, R>> for Free<'_, W> {
    type Landing = FreeMove;

    #[inline]
    fn feet(&self, table: &CellRecords<'c, R>, node: u32) -> IVec3 {
        table.cells.position(node)
    }

    #[inline]
    fn expand(
        &mut self,
        table: &mut CellRecords<'c, R>,
        node: u32,
        record: R,
        feet: IVec3,
        mut relax: impl FnMut(&mut CellRecords<'c, R>, Successor<u32, u32, FreeMove>) -> bool,
    ) {
        let legal = self.moves(feet, (record.tag() & ARRIVAL_MASK) as usize);
        let near = Neighbourhood::new(node, feet);
        // The moves within the page first, then the others: which kind a move is depends on
        // where `feet` lies in its page, and a branch on it per move is mispredicted about
        // twice per expansion; a branch per run of moves is not.
        let mut pending = legal & near.inside;
        let mut leaving = legal & !near.inside;
        let mut in_page = true;
        loop {
            if pending == 0 {
                if leaving == 0 {
                    break;
                }
                (pending, leaving, in_page) = (leaving, 0, false);
            }
            let i = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let to = if in_page {
                near.neighbour(i)
            } else {
                match table
                    .cells
                    .neighbour_node(node, feet, feet + DIRECTIONS[i & 31])
                {
                    Some(to) => to,
                    None => continue,
                }
            };
            // Only worlds with extra costs and a node that gets a new cost need the target's
            // position: the compiler computes it for those alone.
            let next = Successor {
                at: to,
                landing: FreeMove(i),
                cost: free_target_cost(self.world, self.steps[i & 31], FreeMove(i).feet(feet)),
                via: u32::from(ARRIVALS[i & 31]),
            };
            if !relax(table, next) {
                return;
            }
        }
    }
}
