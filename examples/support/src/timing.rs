//! The process's CPU time next to wall-clock time: on a shared machine a run that got less
//! than a core shows it, so its times are read as inflated rather than as a slow search.

use std::time::{Duration, Instant};

/// The CPU time (user + system) this process has used so far, read from `/proc/self/stat`
/// on Linux; `None` elsewhere or when the file cannot be read.
#[must_use]
pub fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // After the command name (in parentheses, and it may hold spaces) come the state (field
    // 3), ..., utime and stime (fields 14 and 15), in clock ticks of 10 ms.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some(Duration::from_millis((ticks(11)? + ticks(12)?) * 10))
}

/// Wall-clock and CPU time since it was started.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Stopwatch {
    /// Starts both clocks.
    #[must_use]
    pub fn start() -> Self {
        Self {
            wall: Instant::now(),
            cpu: cpu_time(),
        }
    }

    /// Wall-clock time since the start.
    #[must_use]
    pub fn wall(&self) -> Duration {
        self.wall.elapsed()
    }

    /// CPU time since the start (`None` where it cannot be read).
    #[must_use]
    pub fn cpu(&self) -> Option<Duration> {
        Some(cpu_time()?.saturating_sub(self.cpu?))
    }

    /// A note for the reader when the process got less than 90% of one core since the
    /// start (the machine is busy, so times are inflated and ratios noisy); `None` otherwise.
    #[must_use]
    pub fn busy_note(&self) -> Option<String> {
        let wall = self.wall().as_secs_f64();
        let cpu = self.cpu()?.as_secs_f64();
        let share = cpu / wall.max(1e-9);
        (share < 0.9).then(|| {
            format!(
                "note: the timed part got {:.0}% of a core ({cpu:.1} s CPU in {wall:.1} s): the \
                 machine is busy, so the times below are inflated and the ratios noisy",
                share * 100.0
            )
        })
    }
}
