//! The bounds of the hostile-input tests hold: a process past its time is
//! killed with everything it started, and one past its address space fails
//! to allocate. (The tests of `bounded/` themselves, so that a hostile-input
//! test that passes does so because the program under test kept within its
//! bounds.)

mod bounded;

use bounded::{run, Bounds};
use std::path::Path;
use std::time::Duration;

#[test]
fn a_process_past_its_time_is_killed_with_its_group() {
    let marker = std::env::temp_dir().join(format!("bounded-{}", std::process::id()));
    let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
    let ended = run(
        Path::new("/bin/sh"),
        &["-c", &script],
        Vec::new(),
        Bounds {
            address_space: 1 << 30,
            time: Duration::from_millis(300),
        },
    );
    assert!(ended.timed_out, "{}", ended.account());
    assert!(
        ended.elapsed < Duration::from_secs(5),
        "{}",
        ended.account()
    );
    std::thread::sleep(Duration::from_secs(3));
    assert!(!marker.exists(), "the background child outlived its group");
}

#[test]
fn a_process_past_its_address_space_cannot_allocate_and_its_peak_is_measured() {
    // Python allocating 1 GiB under a cap of 512 MiB fails with MemoryError.
    // Then it touches 64 MiB, which the measured peak shows.
    let program = "import sys\ntry:\n    b = bytearray(1 << 30)\nexcept MemoryError:\n    b = bytearray(b'x' * (64 << 20))\n    sys.exit(3)\n";
    let ended = run(
        Path::new("/usr/bin/env"),
        &["python3", "-c", program],
        Vec::new(),
        Bounds {
            address_space: 512 << 20,
            time: Duration::from_secs(20),
        },
    );
    assert_eq!(ended.code, Some(3), "{}", ended.account());
    assert!(
        (64 << 20..512 << 20).contains(&ended.peak_rss),
        "{}",
        ended.account()
    );
}
