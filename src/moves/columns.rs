//! The walking rules applied to whole columns at once: the hot loop of every expansion,
//! which gives the moves of the cell-by-cell statement ([`super::walk`]) from one read of the
//! 9 columns around the feet.

use glam::IVec3;

use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::walk::{ladder_climb_narrow, move_in_direction_narrow, priced_move};
use crate::moves::{DIRECTIONS, Move, MoveKind};
use crate::world::{AROUND, ColumnBits, TerrainFlags, VoxelWorld};

/// The walking rules' moves from the valid feet position `feet`; ladder climbs only when
/// `ladders` (a body wider than one block climbs none: its view of the world has no ladder
/// flags, see [`super::wide`], so asking for them would only cost a terrain read).
#[inline]
pub(super) fn for_each_walking_move<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    ladders: bool,
    mut visit: impl FnMut(Move),
) {
    let directions = if agent.diagonals {
        &DIRECTIONS[..]
    } else {
        &DIRECTIONS[..4]
    };
    let window = agent.max_drop + 1 + agent.height + agent.max_step_up;
    let cell_by_cell = |visit: &mut dyn FnMut(Move)| {
        for &direction in directions {
            if let Some(step) = move_in_direction_narrow(world, agent, costs, feet, direction) {
                visit(step);
            }
        }
    };
    if window > 64 {
        cell_by_cell(&mut visit);
        if ladders {
            visit_ladder_climbs(world, agent, costs, feet, &mut visit);
        }
        return;
    }
    // Bit i of every column below describes the cell at height `base + i`; the feet are at
    // bit `max_drop + 1`, so the lowest floor a drop can land on is bit 0.
    let base = feet.y - agent.max_drop as i32 - 1;
    let around = if agent.diagonals {
        world.columns_around(feet.x, feet.z, base, window)
    } else {
        let mut around = [ColumnBits::default(); 9];
        for (column, &(dx, dz)) in around.iter_mut().zip(&AROUND[..5]) {
            *column = world.column(feet.x + dx, feet.z + dz, base, window);
        }
        around
    };
    if around.iter().any(|column| column.partial != 0) {
        // Rule 6 needs real floor heights: take the cell-by-cell statement of the rules.
        cell_by_cell(&mut visit);
        if ladders {
            visit_ladder_climbs(world, agent, costs, feet, &mut visit);
        }
        return;
    }
    let (own, columns) = (around[0], &around[1..]);
    let rules = ColumnRules {
        feet_bit: agent.max_drop + 1,
        body: (1u64 << agent.height) - 1,
        height: agent.height,
        max_drop: agent.max_drop,
        max_step_up: agent.max_step_up,
        own,
    };
    let grid = ColumnGrid {
        feet,
        base,
        directions,
        columns,
    };
    // One copy of the loop per water mode, so that a walker that does not swim pays nothing
    // for rule 8 in the hot loop.
    if agent.swims_at_surface() {
        visit_column_moves::<true, W>(world, agent, costs, &grid, &rules, &mut visit);
    } else {
        visit_column_moves::<false, W>(world, agent, costs, &grid, &rules, &mut visit);
    }
    if ladders {
        visit_ladder_climbs(world, agent, costs, feet, &mut visit);
    }
}

/// The column bits of one expansion: the feet, the height of bit 0, the directions tried
/// and the 8 neighbouring columns in the order of [`DIRECTIONS`].
struct ColumnGrid<'a> {
    feet: IVec3,
    base: i32,
    directions: &'a [IVec3],
    columns: &'a [ColumnBits],
}

/// Rules 1-3 over the column bits of `grid`, for a walker that swims at the surface when
/// `SWIMS`: calls `visit` with the move in each direction.
#[expect(
    clippy::inline_always,
    reason = "the hot loop of every expansion, called from one place per water mode"
)]
#[inline(always)]
fn visit_column_moves<const SWIMS: bool, W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    grid: &ColumnGrid<'_>,
    rules: &ColumnRules,
    visit: &mut impl FnMut(Move),
) {
    let ColumnGrid {
        feet,
        base,
        directions,
        columns,
    } = *grid;
    // Swimming positions are not in the column bits, and falls into water reach below the
    // window: an agent that swims takes the bits only where rule 8 cannot change the move,
    // and the cell-by-cell statement for every other direction.
    for (i, &direction) in directions.iter().enumerate() {
        let target = columns[i];
        if SWIMS && !rules.dry_for_swimmer(world, target, feet + direction) {
            if let Some(step) = move_in_direction_narrow(world, agent, costs, feet, direction) {
                visit(step);
            }
            continue;
        }
        let Some((bit, kind)) = rules.target(target) else {
            continue;
        };
        if i >= 4 {
            // The diagonal's side columns are the straight neighbours along x and along z.
            let side_x = columns[usize::from(direction.x < 0)];
            let side_z = columns[2 + usize::from(direction.z < 0)];
            let top = rules.feet_bit.max(bit) + rules.height - 1;
            let span = low_bits(top - rules.feet_bit + 1) << rules.feet_bit;
            if side_x.passable & span != span || side_z.passable & span != span {
                continue;
            }
        }
        let to = IVec3::new(
            feet.x + direction.x,
            base + bit as i32,
            feet.z + direction.z,
        );
        // Every floor here is a full block (no partial bit), so the rise is 16 per cell: a
        // step up is a jump within rule 6's limits, a walk or drop needs no jump.
        if let Some(step) = priced_move(
            world,
            agent,
            costs,
            to,
            direction,
            kind,
            matches!(kind, MoveKind::StepUp(_)),
        ) {
            visit(step);
        }
    }
}

/// Rule 4: calls `visit` with the ladder climbs from `feet`.
#[inline]
fn visit_ladder_climbs<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    visit: &mut impl FnMut(Move),
) {
    let here = world.terrain(feet);
    if here.contains(TerrainFlags::IN_LADDER) || here.contains(TerrainFlags::ON_LADDER) {
        for up in [true, false] {
            if let Some(step) = ladder_climb_narrow(world, agent, costs, feet, up) {
                visit(step);
            }
        }
    }
}

/// `n` low bits set (`n <= 64`).
#[inline]
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The walking rules over column bitmasks, for one expansion.
struct ColumnRules {
    feet_bit: u32,
    body: u64,
    height: u32,
    max_drop: u32,
    max_step_up: u32,
    own: ColumnBits,
}

impl ColumnRules {
    #[inline]
    fn fits(&self, column: ColumnBits, bit: u32) -> bool {
        (column.passable >> bit) & self.body == self.body
    }

    /// Whether rule 8 leaves the move into the column `target` (whose cell at the feet's
    /// height is `level`) as the walking rules make it, so that the bits answer for an agent
    /// that swims too: a level walk onto a floor; a drop within `max_drop` through no water
    /// (a swimming position is a water cell with no floor under it, and only such cells lie
    /// above the landing); a step up, or no move, with no cell on the way up where the body
    /// fits over no floor (the only places a swimming position could end it sooner).
    #[inline]
    fn dry_for_swimmer<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        target: ColumnBits,
        level: IVec3,
    ) -> bool {
        let f = self.feet_bit;
        let standable = |bit: u32| (target.standable >> bit) & 1 != 0;
        if self.fits(target, f) {
            if standable(f - 1) {
                return true;
            }
            return match self.target(target) {
                Some((_, MoveKind::Drop(k))) => (0..k as i32).all(|j| {
                    !world
                        .terrain(level - IVec3::Y * j)
                        .contains(TerrainFlags::IN_WATER)
                }),
                _ => false,
            };
        }
        for k in 1..=self.max_step_up {
            if (self.own.passable >> (f + self.height + k - 1)) & 1 == 0 {
                return true;
            }
            if self.fits(target, f + k) {
                return standable(f + k - 1);
            }
        }
        true
    }

    /// The bit of the feet after a move into `target`, and the kind of move: rules 1 and 2
    /// of the module docs.
    #[inline]
    fn target(&self, target: ColumnBits) -> Option<(u32, MoveKind)> {
        let f = self.feet_bit;
        if self.fits(target, f) {
            if (target.standable >> (f - 1)) & 1 != 0 {
                return Some((f, MoveKind::Walk));
            }
            for k in 1..=self.max_drop {
                let bit = f - k;
                if (target.passable >> bit) & 1 == 0 {
                    return None;
                }
                if (target.standable >> (bit - 1)) & 1 != 0 {
                    return Some((bit, MoveKind::Drop(k)));
                }
            }
            return None;
        }
        for k in 1..=self.max_step_up {
            if (self.own.passable >> (f + self.height + k - 1)) & 1 == 0 {
                return None;
            }
            let bit = f + k;
            if (target.standable >> (bit - 1)) & 1 != 0 && self.fits(target, bit) {
                return Some((bit, MoveKind::StepUp(k)));
            }
        }
        None
    }
}
