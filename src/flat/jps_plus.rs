//! Preprocessed jump point search (JPS+, after Rabin and Harabor): every free cell stores,
//! for each of the 8 directions, how far its jump goes, so a query reads its successors from
//! a table instead of scanning.
//!
//! A cell's entry for a direction is `k > 0` when the jump meets a jump point `k` steps away
//! and `-k` (`k >= 0`) when it can go `k` steps and then meets a wall with no jump point on
//! the way. A query also stops at the goal: a straight jump whose line holds the goal within
//! its reach ends there, and a diagonal jump whose reach crosses the goal's row or column
//! (the goal lying ahead in both components) ends at the crossing, from which the straight
//! scans of the next expansion see the goal. Both are cells of the jump's line, so the
//! search stays exact.
//!
//! An edit changes a cell's freedom, which changes the forced neighbours of the cells around
//! it: only the straight entries of the three rows and the three columns through the cell can
//! change, and they are recomputed. A diagonal entry depends on the cell ahead on its
//! diagonal (its own diagonal entry, whether its straight entries find a jump point, and the
//! freedom of the cells the step passes), so diagonal entries are recomputed backwards along
//! each diagonal from every cell whose straight answers or freedom changed, until an entry
//! comes out as it was.

use crate::error::{Error, Result};
use crate::flat::bits::BitGrid;
use crate::flat::jps::{DIRECTIONS, JumpSource, diagonal_step_free, direction_index, forced};
use crate::world::grid::Grid2d;

/// The most cells a [`JumpTable`] holds: 2^24, as many as a compiled walk graph
/// ([`MAX_GRAPH_COLUMNS`](crate::graph::MAX_GRAPH_COLUMNS)), so that every cell index fits
/// the search's 32-bit node numbers.
pub const MAX_TABLE_CELLS: u64 = 1 << 24;

/// Jump distances per free cell and direction (see the module documentation), with the bit
/// grid they were computed from.
#[derive(Debug, Clone)]
pub struct JumpTable {
    bits: BitGrid,
    /// Per cell (`y * width + x`), per direction of [`DIRECTIONS`]; 0 for a blocked cell.
    distances: Vec<[i32; 8]>,
    /// Cells whose straight answers or freedom an edit changed (reused between edits).
    changed: Vec<(i32, i32)>,
}

impl JumpTable {
    /// The table of `grid`: O(cells) work, 32 bytes per cell.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for a grid of more than [`MAX_TABLE_CELLS`] cells, whose
    /// table would take more than 512 MiB.
    pub fn new(grid: &Grid2d) -> Result<Self> {
        let cells = u64::from(grid.width()) * u64::from(grid.height());
        if cells > MAX_TABLE_CELLS {
            return Err(Error::InvalidSetting(format!(
                "a {}x{} grid has {cells} cells, more than the {MAX_TABLE_CELLS} a jump table \
                 holds (32 bytes each)",
                grid.width(),
                grid.height()
            )));
        }
        let bits = BitGrid::new(grid);
        let cells = bits.width() as usize * bits.height() as usize;
        let mut table = Self {
            bits,
            distances: vec![[0; 8]; cells],
            changed: Vec::new(),
        };
        for y in 0..table.bits.height() {
            table.straight_line(y, true);
        }
        for x in 0..table.bits.width() {
            table.straight_line(x, false);
        }
        for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate().skip(4) {
            // Each entry reads the one a step ahead on its diagonal: fill from the far end.
            let ys: Vec<i32> = if dy > 0 {
                (0..table.bits.height()).rev().collect()
            } else {
                (0..table.bits.height()).collect()
            };
            for &y in &ys {
                for i in 0..table.bits.width() {
                    let x = if dx > 0 {
                        table.bits.width() - 1 - i
                    } else {
                        i
                    };
                    let value = table.diagonal_entry(x, y, dir);
                    let at = table.index(x, y);
                    table.distances[at][dir] = value;
                }
            }
        }
        Ok(table)
    }

    /// The grid's width.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.bits.width() as u32
    }

    /// The grid's height.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.bits.height() as u32
    }

    /// Whether `(x, y)` is inside the grid and free.
    #[must_use]
    pub fn is_free(&self, x: i32, y: i32) -> bool {
        self.bits.is_free_anywhere(x, y)
    }

    /// The entry of the free cell `(x, y)` for direction `(dx, dy)` (see the module
    /// documentation); `None` outside the grid, on a blocked cell or for `(0, 0)`.
    #[must_use]
    pub fn distance(&self, x: i32, y: i32, dx: i32, dy: i32) -> Option<i32> {
        let valid = (dx, dy) != (0, 0) && dx.abs() <= 1 && dy.abs() <= 1;
        (valid && self.is_free(x, y))
            .then(|| self.distances[self.index(x, y)][direction_index(dx, dy)])
    }

    #[inline]
    fn index(&self, x: i32, y: i32) -> usize {
        (y * self.bits.width() + x) as usize
    }

    /// Makes the cell `(x, y)` free or blocked and updates the entries that depend on it.
    /// Returns `false`, changing nothing, when the cell is outside the grid.
    pub fn set_free(&mut self, x: i32, y: i32, free: bool) -> bool {
        if !(0..self.bits.width()).contains(&x) || !(0..self.bits.height()).contains(&y) {
            return false;
        }
        if self.bits.is_free(x, y) == free {
            return true;
        }
        self.bits.set_free(x, y, free);
        let mut changed = std::mem::take(&mut self.changed);
        changed.clear();
        // The cell's freedom changed; the diagonal steps past it start from its 3x3.
        for (dx, dy) in DIRECTIONS.into_iter().chain([(0, 0)]) {
            changed.push((x + dx, y + dy));
        }
        if !free {
            let at = self.index(x, y);
            self.distances[at] = [0; 8];
        }
        for line in y - 1..=y + 1 {
            if (0..self.bits.height()).contains(&line) {
                self.refresh_straight(line, true, &mut changed);
            }
        }
        for line in x - 1..=x + 1 {
            if (0..self.bits.width()).contains(&line) {
                self.refresh_straight(line, false, &mut changed);
            }
        }
        for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate().skip(4) {
            for &(cx, cy) in &changed {
                self.refresh_diagonal_back(cx, cy, dir);
                self.refresh_diagonal_back(cx - dx, cy - dy, dir);
            }
        }
        self.changed = changed;
        true
    }

    /// Recomputes the diagonal entries for `dir` from `(x, y)` backwards along the diagonal
    /// until one comes out unchanged.
    fn refresh_diagonal_back(&mut self, mut x: i32, mut y: i32, dir: usize) {
        let (dx, dy) = DIRECTIONS[dir];
        while self.is_free(x, y) {
            let value = self.diagonal_entry(x, y, dir);
            let at = self.index(x, y);
            if self.distances[at][dir] == value {
                return;
            }
            self.distances[at][dir] = value;
            (x, y) = (x - dx, y - dy);
        }
    }

    /// Recomputes the straight entries of row (`horizontal`) or column `line`, noting in
    /// `changed` every cell whose answer to "does a jump point lie ahead" changed.
    fn refresh_straight(&mut self, line: i32, horizontal: bool, changed: &mut Vec<(i32, i32)>) {
        let dirs = if horizontal { [0, 1] } else { [2, 3] };
        let length = if horizontal {
            self.bits.width()
        } else {
            self.bits.height()
        };
        let before: Vec<[bool; 2]> = (0..length)
            .map(|i| {
                let (x, y) = if horizontal { (i, line) } else { (line, i) };
                let entry = self.distances[self.index(x, y)];
                [entry[dirs[0]] > 0, entry[dirs[1]] > 0]
            })
            .collect();
        self.straight_line(line, horizontal);
        for (i, was) in before.into_iter().enumerate() {
            let (x, y) = if horizontal {
                (i as i32, line)
            } else {
                (line, i as i32)
            };
            let entry = self.distances[self.index(x, y)];
            if was != [entry[dirs[0]] > 0, entry[dirs[1]] > 0] {
                changed.push((x, y));
            }
        }
    }

    /// Fills the straight entries (both senses) of row (`horizontal`) or column `line`.
    fn straight_line(&mut self, line: i32, horizontal: bool) {
        let length = if horizontal {
            self.bits.width()
        } else {
            self.bits.height()
        };
        let dirs = if horizontal { [0, 1] } else { [2, 3] };
        for dir in dirs {
            let (dx, dy) = DIRECTIONS[dir];
            let sense = dx + dy;
            // From the far end, so the cell ahead is known.
            let mut i = if sense > 0 { length - 1 } else { 0 };
            for _ in 0..length {
                let (x, y) = if horizontal { (i, line) } else { (line, i) };
                let value = if self.bits.is_free(x, y) {
                    self.straight_entry(x, y, dir)
                } else {
                    0
                };
                let at = self.index(x, y);
                self.distances[at][dir] = value;
                i -= sense;
            }
        }
    }

    /// The straight entry of the free cell `(x, y)` for `dir`, from the entry of the cell
    /// ahead.
    fn straight_entry(&self, x: i32, y: i32, dir: usize) -> i32 {
        let (dx, dy) = DIRECTIONS[dir];
        let (nx, ny) = (x + dx, y + dy);
        if !self.bits.is_free(nx, ny) {
            return 0;
        }
        let side = (dy.abs(), dx.abs());
        let neg_side = (-side.0, -side.1);
        if forced(&self.bits, nx, ny, (dx, dy), side)
            || forced(&self.bits, nx, ny, (dx, dy), neg_side)
        {
            return 1;
        }
        step_on(self.distances[self.index(nx, ny)][dir])
    }

    /// The diagonal entry of `(x, y)` for `dir`, from the entries of the cell ahead; 0 for a
    /// blocked cell.
    fn diagonal_entry(&self, x: i32, y: i32, dir: usize) -> i32 {
        let (dx, dy) = DIRECTIONS[dir];
        if !self.bits.is_free(x, y) || !diagonal_step_free(&self.bits, x, y, dx, dy) {
            return 0;
        }
        let ahead = self.distances[self.index(x + dx, y + dy)];
        if ahead[direction_index(dx, 0)] > 0 || ahead[direction_index(0, dy)] > 0 {
            return 1;
        }
        step_on(ahead[dir])
    }
}

/// The entry of a cell one step before a cell whose entry is `ahead` (which is not a jump
/// point itself).
#[inline]
fn step_on(ahead: i32) -> i32 {
    if ahead > 0 { ahead + 1 } else { ahead - 1 }
}

impl JumpSource for JumpTable {
    fn bits(&self) -> &BitGrid {
        &self.bits
    }

    #[inline]
    fn jump(&self, x: i32, y: i32, dx: i32, dy: i32, goal: (i32, i32)) -> Option<u32> {
        let entry = self.distances[self.index(x, y)][direction_index(dx, dy)];
        let reach = entry.unsigned_abs();
        let (to_x, to_y) = (goal.0 - x, goal.1 - y);
        if dx == 0 || dy == 0 {
            // The goal on this line, ahead, within reach.
            let ahead = if dy == 0 {
                (to_y == 0 && to_x.signum() == dx).then_some(to_x.unsigned_abs())
            } else {
                (to_x == 0 && to_y.signum() == dy).then_some(to_y.unsigned_abs())
            };
            if let Some(distance) = ahead
                && distance <= reach
            {
                return Some(distance);
            }
        } else if to_x.signum() == dx && to_y.signum() == dy {
            let crossing = to_x.unsigned_abs().min(to_y.unsigned_abs());
            if crossing <= reach {
                return Some(crossing);
            }
        }
        (entry > 0).then_some(reach)
    }

    /// From the table: an entry of `k` or `-k` promises `k` legal steps (to a jump point or
    /// to the last cell before a wall), so a run hops from jump point to jump point instead
    /// of testing three cells per step.
    #[inline]
    fn diagonal_run_is_free(&self, (x, y): (i32, i32), (dx, dy): (i32, i32), steps: i32) -> bool {
        let dir = direction_index(dx, dy);
        let (mut cx, mut cy, mut left) = (x, y, steps);
        while left > 0 {
            let entry = self.distances[self.index(cx, cy)][dir];
            let reach = entry.abs();
            if reach >= left {
                return true;
            }
            if entry <= 0 {
                return false;
            }
            (cx, cy, left) = (cx + dx * reach, cy + dy * reach, left - reach);
        }
        true
    }

    /// From the table: hops from jump point to jump point until an entry ends at a wall.
    #[inline]
    fn reach(&self, (x, y): (i32, i32), (dx, dy): (i32, i32)) -> i32 {
        let dir = direction_index(dx, dy);
        let (mut cx, mut cy, mut steps) = (x, y, 0);
        loop {
            let entry = self.distances[self.index(cx, cy)][dir];
            steps += entry.abs();
            if entry <= 0 {
                return steps;
            }
            (cx, cy) = (cx + dx * entry, cy + dy * entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;

    /// A random grid of 1 to 90 cells a side, up to 29% walls, with its table.
    fn random_table(next: &mut impl FnMut() -> u64) -> (u32, u32, JumpTable) {
        let width = 1 + (next() % 90) as u32;
        let height = 1 + (next() % 90) as u32;
        let walls = next() % 30;
        let blocked = (0..width * height).map(|_| next() % 100 < walls).collect();
        let grid = Grid2d::from_blocked(width, height, blocked).expect("valid size");
        (width, height, JumpTable::new(&grid).expect("small grid"))
    }

    /// A random cell of `table`'s grid, when it is free.
    fn random_free_cell(next: &mut impl FnMut() -> u64, table: &JumpTable) -> Option<(i32, i32)> {
        let (x, y) = (
            (next() % table.bits.width() as u64) as i32,
            (next() % table.bits.height() as u64) as i32,
        );
        table.bits.is_free(x, y).then_some((x, y))
    }

    /// The table's hops from jump point to jump point answer as the step-by-step test of the
    /// bit grid does, on random grids and runs of every length the grid holds.
    #[test]
    fn table_diagonal_runs_match_step_by_step_tests() {
        let mut next = xorshift(0x7ab1_e5d1);
        for _ in 0..40 {
            let (width, height, table) = random_table(&mut next);
            for _ in 0..300 {
                let Some((x, y)) = random_free_cell(&mut next, &table) else {
                    continue;
                };
                let (dx, dy) = DIRECTIONS[4 + (next() % 4) as usize];
                let room_x = if dx > 0 { width as i32 - 1 - x } else { x };
                let room_y = if dy > 0 { height as i32 - 1 - y } else { y };
                let steps = (next() % (room_x.min(room_y) as u64 + 1)) as i32;
                assert_eq!(
                    table.diagonal_run_is_free((x, y), (dx, dy), steps),
                    table.bits.diagonal_run_is_free((x, y), (dx, dy), steps),
                    "{width}x{height} from ({x}, {y}) by ({dx}, {dy}) x {steps}"
                );
            }
        }
    }

    /// The table's reaches (hops from jump point to jump point until a wall) equal the
    /// step-by-step count of the bit grid, in all 8 directions, on random grids.
    #[test]
    fn table_reaches_match_step_by_step_counts() {
        let mut next = xorshift(0x4eac_4e55);
        for _ in 0..40 {
            let (width, height, table) = random_table(&mut next);
            for _ in 0..100 {
                let Some((x, y)) = random_free_cell(&mut next, &table) else {
                    continue;
                };
                for way in DIRECTIONS {
                    assert_eq!(
                        table.reach((x, y), way),
                        table.bits.reach((x, y), way),
                        "{width}x{height} from ({x}, {y}) by {way:?}"
                    );
                }
            }
        }
    }
}
