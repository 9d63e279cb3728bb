//! A 2D grid as bit rows (64 cells per word) and the straight scans of jump point search over
//! them.
//!
//! A straight jump looks at three lines: the one it travels and the two beside it. It stops
//! at the first cell with a *forced neighbour*: a free side cell whose own neighbour behind
//! (on the side line, one cell back) is blocked, so that the side cell cannot be reached as
//! cheaply without turning here (the rule of jump point search without corner cutting). Read 64
//! cells of each line at once, "free here and blocked one cell back" is one shift, one
//! and-not per side line, and the first stop and the first wall are a trailing (forwards) or
//! leading (backwards) zero count: a jump across open ground costs three word reads per 63
//! cells instead of three cell tests per cell. Vertical jumps read a transposed copy of the
//! grid the same way.

use crate::world::grid::Grid2d;

/// Padding bits before cell 0 of a line: one whole word of blocked cells, so that a window
/// 63 cells behind cell 0 is still inside the line.
const PAD: i32 = 64;

/// Free cells as bits, row by row and column by column, with a blocked border.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BitGrid {
    width: i32,
    height: i32,
    /// Words per row of `rows`.
    row_words: usize,
    /// Row `y` (from -1 to `height`, the outer two all blocked) at `(y + 1) * row_words`; cell
    /// `x` at bit `PAD + x`; bit set when free.
    rows: Vec<u64>,
    /// Words per column of `cols`.
    col_words: usize,
    /// The transposed grid: column `x` (from -1 to `width`) at `(x + 1) * col_words`; cell `y`
    /// at bit `PAD + y`.
    cols: Vec<u64>,
}

/// Words of a line of `cells` cells: the padding word before, the cells, and a word after
/// for windows that reach past the last cell.
fn line_words(cells: i32) -> usize {
    (cells as usize).div_ceil(64) + 2
}

/// The 64 bits of `line` from bit `bit` on (bit 0 of the result is bit `bit` of the line).
#[inline]
fn window(line: &[u64], bit: usize) -> u64 {
    let word = bit / 64;
    let pair = u128::from(line[word]) | (u128::from(line[word + 1]) << 64);
    (pair >> (bit % 64)) as u64
}

/// One of the four straight directions, as a line (horizontal or vertical) and a sense.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Straight {
    /// A row (x changes) rather than a column.
    pub horizontal: bool,
    /// Towards larger x (or y).
    pub forward: bool,
}

impl BitGrid {
    /// The bits of `grid`.
    pub(crate) fn new(grid: &Grid2d) -> Self {
        let (width, height) = (grid.width() as i32, grid.height() as i32);
        let row_words = line_words(width);
        let col_words = line_words(height);
        let mut bits = Self {
            width,
            height,
            row_words,
            rows: vec![0; row_words * (height as usize + 2)],
            col_words,
            cols: vec![0; col_words * (width as usize + 2)],
        };
        for y in 0..height {
            for x in 0..width {
                if grid.state(x, y) == Some(false) {
                    bits.set_free(x, y, true);
                }
            }
        }
        bits
    }

    /// The grid's width.
    #[inline]
    pub(crate) fn width(&self) -> i32 {
        self.width
    }

    /// The grid's height.
    #[inline]
    pub(crate) fn height(&self) -> i32 {
        self.height
    }

    /// Whether `(x, y)` is free; `x` from -1 to `width` and `y` from -1 to `height` (the
    /// border, always blocked).
    #[inline]
    pub(crate) fn is_free(&self, x: i32, y: i32) -> bool {
        let bit = (PAD + x) as usize;
        let word = self.rows[(y + 1) as usize * self.row_words + bit / 64];
        word >> (bit % 64) & 1 == 1
    }

    /// Whether `(x, y)` is inside the grid and free, for any `x` and `y`.
    #[inline]
    pub(crate) fn is_free_anywhere(&self, x: i32, y: i32) -> bool {
        (0..self.width).contains(&x) && (0..self.height).contains(&y) && self.is_free(x, y)
    }

    /// Makes `(x, y)`, inside the grid, free or blocked in both copies.
    pub(crate) fn set_free(&mut self, x: i32, y: i32, free: bool) {
        let set = |line: &mut [u64], bit: usize| {
            if free {
                line[bit / 64] |= 1 << (bit % 64);
            } else {
                line[bit / 64] &= !(1 << (bit % 64));
            }
        };
        let row = (y + 1) as usize * self.row_words;
        set(
            &mut self.rows[row..row + self.row_words],
            (PAD + x) as usize,
        );
        let col = (x + 1) as usize * self.col_words;
        set(
            &mut self.cols[col..col + self.col_words],
            (PAD + y) as usize,
        );
    }

    /// Whether the cells `from ..= to` (`from <= to`, all inside the grid) of row `line`
    /// (`horizontal`) or column `line` are all free: 64 cells per word read.
    #[inline]
    pub(crate) fn line_is_free(&self, horizontal: bool, line: i32, from: i32, to: i32) -> bool {
        let (lines, words) = if horizontal {
            (&self.rows, self.row_words)
        } else {
            (&self.cols, self.col_words)
        };
        let start = (line + 1) as usize * words;
        let cells = &lines[start..start + words];
        let mut pos = from;
        while pos <= to {
            let count = (to - pos + 1).min(64) as u32;
            let wanted = u64::MAX >> (64 - count);
            if window(cells, (PAD + pos) as usize) & wanted != wanted {
                return false;
            }
            pos += 64;
        }
        true
    }

    /// The straight jump from the free cell `(x, y)` in direction `way`: the number of steps
    /// to the first cell that has a forced neighbour or is `goal`, or `None` when a blocked cell
    /// comes first.
    #[inline]
    pub(crate) fn jump(&self, x: i32, y: i32, way: Straight, goal: (i32, i32)) -> Option<u32> {
        // Along a row the position is x and the side lines are rows y - 1 and y + 1, stored
        // just before and after row y; along a column the same in the transposed copy.
        let (lines, words, line, at, target) = if way.horizontal {
            (
                &self.rows,
                self.row_words,
                y,
                x,
                (goal.1 == y).then_some(goal.0),
            )
        } else {
            (
                &self.cols,
                self.col_words,
                x,
                y,
                (goal.0 == x).then_some(goal.1),
            )
        };
        // Line `l` is stored as the `l + 1`th, so lines `line - 1 ..= line + 1` are one run.
        let three = &lines[line as usize * words..(line as usize + 3) * words];
        let (before, rest) = three.split_at(words);
        let (mid, after) = rest.split_at(words);
        if way.forward {
            scan_forward([mid, before, after], at, target)
        } else {
            scan_backward([mid, before, after], at, target)
        }
    }
}

/// [`BitGrid::jump`] towards larger positions along `mid` (with side lines `a` and `b`) from
/// position `at`, stopping at `target` too.
#[inline]
fn scan_forward([mid, a, b]: [&[u64]; 3], at: i32, target: Option<i32>) -> Option<u32> {
    let mut pos = at;
    loop {
        // Bit i: the cell i steps on from `pos`; bit 0, the cell the scan stands on, is never a
        // stop.
        let bit = (PAD + pos) as usize;
        let (here, side_a, side_b) = (window(mid, bit), window(a, bit), window(b, bit));
        let forced = (side_a & !(side_a << 1)) | (side_b & !(side_b << 1));
        let mut stops = forced & !1;
        if let Some(offset) = target.map(|t| t - pos)
            && (1..64).contains(&offset)
        {
            stops |= 1 << offset;
        }
        let stop = stops.trailing_zeros();
        let wall = (!here & !1).trailing_zeros();
        if stop < wall {
            return Some((pos - at) as u32 + stop);
        }
        if wall < 64 {
            return None;
        }
        // Cells 1 to 63 are free and not stops: go on from the last of them.
        pos += 63;
    }
}

/// [`scan_forward`] towards smaller positions: bit 63 of a window is the cell the scan
/// stands on, bit 63 - i the cell i steps back.
#[inline]
fn scan_backward([mid, a, b]: [&[u64]; 3], at: i32, target: Option<i32>) -> Option<u32> {
    const TOP: u64 = 1 << 63;
    let mut pos = at;
    loop {
        let bit = (PAD + pos - 63) as usize;
        let (here, side_a, side_b) = (window(mid, bit), window(a, bit), window(b, bit));
        let forced = (side_a & !(side_a >> 1)) | (side_b & !(side_b >> 1));
        let mut stops = forced & !TOP;
        if let Some(offset) = target.map(|t| pos - t)
            && (1..64).contains(&offset)
        {
            stops |= TOP >> offset;
        }
        let stop = stops.leading_zeros();
        let wall = (!here & !TOP).leading_zeros();
        if stop < wall {
            return Some((at - pos) as u32 + stop);
        }
        if wall < 64 {
            return None;
        }
        pos -= 63;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;

    /// The straight jump cell by cell: the rule the bit scans must match.
    fn jump_by_cells(
        bits: &BitGrid,
        x: i32,
        y: i32,
        way: Straight,
        goal: (i32, i32),
    ) -> Option<u32> {
        let step = if way.forward { 1 } else { -1 };
        let (dx, dy): (i32, i32) = if way.horizontal { (step, 0) } else { (0, step) };
        let (sx, sy) = (dy.abs(), dx.abs());
        let (mut cx, mut cy, mut steps) = (x, y, 0);
        loop {
            if !bits.is_free(cx + dx, cy + dy) {
                return None;
            }
            (cx, cy, steps) = (cx + dx, cy + dy, steps + 1);
            if (cx, cy) == goal {
                return Some(steps);
            }
            for side in [-1, 1] {
                let (ox, oy) = (cx + side * sx, cy + side * sy);
                if bits.is_free(ox, oy) && !bits.is_free(ox - dx, oy - dy) {
                    return Some(steps);
                }
            }
        }
    }

    #[test]
    fn line_checks_match_cell_tests_on_random_grids() {
        let mut next = xorshift(0x11e5_f4ee);
        for _ in 0..60 {
            let width = 1 + (next() % 200) as u32;
            let height = 1 + (next() % 140) as u32;
            let walls = next() % 8;
            let blocked = (0..width * height).map(|_| next() % 100 < walls).collect();
            let grid = Grid2d::from_blocked(width, height, blocked).expect("valid size");
            let bits = BitGrid::new(&grid);
            for _ in 0..200 {
                let horizontal = next().is_multiple_of(2);
                let (length, lines) = if horizontal {
                    (width, height)
                } else {
                    (height, width)
                };
                let line = (next() % u64::from(lines)) as i32;
                let a = (next() % u64::from(length)) as i32;
                let b = (next() % u64::from(length)) as i32;
                let (from, to) = (a.min(b), a.max(b));
                let by_cells = (from..=to).all(|i| {
                    if horizontal {
                        bits.is_free(i, line)
                    } else {
                        bits.is_free(line, i)
                    }
                });
                assert_eq!(
                    bits.line_is_free(horizontal, line, from, to),
                    by_cells,
                    "{width}x{height}, line {line} ({horizontal}), {from} ..= {to}"
                );
            }
        }
    }

    #[test]
    fn bit_scans_match_the_cell_by_cell_jump_on_random_grids() {
        let mut next = xorshift(0x0b17_5ca9);
        for round in 0..60 {
            let width = 1 + (next() % 200) as u32;
            let height = 1 + (next() % 140) as u32;
            let walls = next() % 60;
            let blocked = (0..width * height).map(|_| next() % 100 < walls).collect();
            let grid = Grid2d::from_blocked(width, height, blocked).expect("valid size");
            let bits = BitGrid::new(&grid);
            for _ in 0..400 {
                let (x, y) = (
                    (next() % u64::from(width)) as i32,
                    (next() % u64::from(height)) as i32,
                );
                if !bits.is_free(x, y) {
                    continue;
                }
                let goal = if round % 2 == 0 {
                    ((next() % u64::from(width)) as i32, y)
                } else {
                    (x, (next() % u64::from(height)) as i32)
                };
                for (horizontal, forward) in
                    [(true, true), (true, false), (false, true), (false, false)]
                {
                    let way = Straight {
                        horizontal,
                        forward,
                    };
                    assert_eq!(
                        bits.jump(x, y, way, goal),
                        jump_by_cells(&bits, x, y, way, goal),
                        "{width}x{height} from ({x}, {y}) {way:?} goal {goal:?}"
                    );
                }
            }
        }
    }
}
