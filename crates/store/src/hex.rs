//! Bytes as hex digits, and random ones (the database's secret, names of its own).

/// Bytes as lower-case hex digits.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// `N` random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf)?;
    Ok(buf)
}

/// `N` random bytes from the operating system, as `2N` lower-case hex digits.
pub fn random_hex<const N: usize>() -> Result<String, getrandom::Error> {
    Ok(hex(&random_bytes::<N>()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_two_digits_each() {
        assert_eq!(hex(&[0, 15, 16, 255]), "000f10ff");
        assert_eq!(random_hex::<4>().unwrap().len(), 8);
    }
}
