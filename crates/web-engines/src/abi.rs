//! The three functions the page calls (a plain C ABI over the module's memory):
//!
//! 1. `input(len)`: makes room for a request of `len` bytes and returns where the page writes
//!    it (UTF-8 JSON);
//! 2. `call()`: answers the request written there and returns the answer's length in bytes;
//! 3. `output()`: where the answer is, to be read before the next `call`.
//!
//! Both buffers belong to this module (the page never frees anything), and no Rust reference
//! to them is held between calls, so the page writing into one is safe for the code here: no
//! pointer is ever turned back into a reference. The exported names need `#[unsafe(no_mangle)]`,
//! the only `unsafe` in the crate: an exported symbol must not clash with another, and these
//! three are the module's only exports.
#![allow(unsafe_code)]

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for a request of `len` bytes (zeroed): where the page writes it.
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|buffer| {
        buffer.clear();
        buffer.resize(len, 0);
        buffer.as_mut_ptr()
    })
}

/// Answers the request in the input buffer; returns the answer's length (read at `output()`).
#[unsafe(no_mangle)]
pub extern "C" fn call() -> usize {
    let answer = INPUT.with_borrow(|buffer| match std::str::from_utf8(buffer) {
        Ok(request) => crate::answer(request),
        Err(e) => {
            serde_json::json!({ "error": format!("the request is not UTF-8: {e}") }).to_string()
        }
    });
    OUTPUT.with_borrow_mut(|buffer| {
        *buffer = answer.into_bytes();
        buffer.len()
    })
}

/// Where the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    OUTPUT.with_borrow(|buffer| buffer.as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's side, done here through the same buffers: write, call, read.
    fn through_the_buffers(request: &[u8]) -> String {
        input(request.len());
        INPUT.with_borrow_mut(|buffer| buffer.copy_from_slice(request));
        let len = call();
        output();
        OUTPUT.with_borrow(|buffer| {
            assert_eq!(buffer.len(), len);
            String::from_utf8(buffer.clone()).expect("UTF-8")
        })
    }

    #[test]
    fn a_request_goes_in_and_its_answer_comes_out() {
        let got = through_the_buffers(br#"{"op":"ink.board","board":""}"#);
        assert!(got.contains(r#""valid":true"#), "{got}");
        let got = through_the_buffers(&[0xff, 0xfe]);
        assert!(got.contains("not UTF-8"), "{got}");
    }
}
