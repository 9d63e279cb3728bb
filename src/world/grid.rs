//! [`Grid2d`]: a rectangular 2D grid of free and blocked cells, the data of the flat-world
//! formats ([`robot`](crate::world::formats::robot), [`movingai`](crate::world::formats::movingai))
//! and of [`FlatWorld`](crate::world::flat::FlatWorld).

use glam::IVec2;

use crate::error::{Error, Result};

/// The largest width or height a grid may have: 2^20 cells per side. Larger headers are an
/// error, so a file cannot ask for absurd amounts of memory.
pub const MAX_GRID_SIDE: u32 = 1 << 20;

/// A rectangular 2D grid of free and blocked cells; `(0, 0)` is the top-left cell, x grows
/// to the right and y downwards.
///
/// ```
/// use voxnav::flat::IVec2;
/// use voxnav::world::Grid2d;
///
/// // 3 wide, 2 high; the middle of the top row is blocked.
/// let grid = Grid2d::from_blocked(3, 2, vec![false, true, false, false, false, false])?;
/// assert!(!grid.is_free(IVec2::new(1, 0)));
/// assert!(grid.is_free(IVec2::new(1, 1)));
/// assert!(!grid.is_free(IVec2::new(3, 0))); // outside
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid2d {
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// Row-major: cell `(x, y)` at `y * width + x`.
    pub(crate) blocked: Vec<bool>,
}

impl Grid2d {
    /// A grid from its cells, row by row from the top (`blocked[y * width + x]` is `true` for
    /// a blocked cell).
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `width` or `height` is 0 or more than
    /// [`MAX_GRID_SIDE`], or `blocked` does not hold `width * height` cells.
    pub fn from_blocked(width: u32, height: u32, blocked: Vec<bool>) -> Result<Self> {
        check_side("width", width).map_err(Error::InvalidSetting)?;
        check_side("height", height).map_err(Error::InvalidSetting)?;
        let cells = width as usize * height as usize;
        if blocked.len() != cells {
            return Err(Error::InvalidSetting(format!(
                "a {width}x{height} grid has {cells} cells, but {} were given",
                blocked.len()
            )));
        }
        Ok(Self {
            width,
            height,
            blocked,
        })
    }

    /// The number of columns.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `cell` lies inside the grid.
    #[inline]
    #[must_use]
    pub fn contains(&self, cell: IVec2) -> bool {
        (cell.x as u32) < self.width && (cell.y as u32) < self.height
    }

    /// Whether `cell` is inside the grid and free. Cells outside are not free.
    #[inline]
    #[must_use]
    pub fn is_free(&self, cell: IVec2) -> bool {
        self.state(cell.x, cell.y) == Some(false)
    }

    /// The number of free cells.
    #[must_use]
    pub fn free_cells(&self) -> usize {
        self.blocked.iter().filter(|&&b| !b).count()
    }

    /// `Some(true)` for a blocked cell, `Some(false)` for a free one, `None` outside.
    #[inline]
    pub(crate) fn state(&self, x: i32, y: i32) -> Option<bool> {
        if (x as u32) < self.width && (y as u32) < self.height {
            Some(self.blocked[y as usize * self.width as usize + x as usize])
        } else {
            None
        }
    }

    /// Checks that `cell` can be a start or goal: inside the grid and free.
    ///
    /// # Errors
    /// [`Error::InvalidCell`] naming `role` (`"start"` or `"goal"`) and the problem.
    pub fn check_cell(&self, role: &'static str, cell: IVec2) -> Result<()> {
        let problem = match self.state(cell.x, cell.y) {
            Some(false) => return Ok(()),
            Some(true) => "is blocked".to_string(),
            None => format!(
                "is outside the {}x{} grid (x must be 0 to {}, y 0 to {})",
                self.width,
                self.height,
                self.width - 1,
                self.height - 1
            ),
        };
        Err(Error::InvalidCell {
            role,
            cell,
            problem,
        })
    }
}

pub(crate) fn check_side(name: &str, value: u32) -> std::result::Result<(), String> {
    if value == 0 {
        Err(format!("the grid {name} must be at least 1"))
    } else if value > MAX_GRID_SIDE {
        Err(format!(
            "the grid {name} {value} is larger than the supported {MAX_GRID_SIDE}"
        ))
    } else {
        Ok(())
    }
}
