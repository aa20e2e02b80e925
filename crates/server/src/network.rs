//! Where a request comes from, as the limits and a challenge's ranking count it.

use sha2::{Digest, Sha256};

/// The network a request came from: an IPv4 address, or the /64 an IPv6 address is in (one
/// household or office has a /64, and can pick any address in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Network(std::net::IpAddr);

impl Network {
    pub fn of(ip: std::net::IpAddr) -> Network {
        use std::net::IpAddr;
        Network(match ip.to_canonical() {
            IpAddr::V6(v6) => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(std::net::Ipv6Addr::from(bits))
            }
            v4 => v4,
        })
    }

    pub fn ip(self) -> std::net::IpAddr {
        self.0
    }

    /// What an entry stores of it: a hash keyed by the database's secret, so the stored value
    /// tells nothing of the address to whoever reads the database without the secret.
    pub fn keyed_hash(self, secret: &[u8; 32]) -> String {
        let mut h = Sha256::new();
        h.update(secret);
        h.update(b"\0network\0");
        h.update(self.0.to_string().as_bytes());
        crate::ids::hex(&h.finalize()[..16])
    }
}
