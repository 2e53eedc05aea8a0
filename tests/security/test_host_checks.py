"""The Host header's checks (a DNS-rebinding name refused, a header that can't be a host name
answered 400) are remembered per header: the same answers every time, within a bound
(tests/security/test_outsider_findings.py checks the answers through requests)."""

from __future__ import annotations

from app.web.security import HOSTS_KEPT, local_host, well_formed_host


def test_the_host_checks_are_remembered_with_the_same_answers():
    """Each Host header's check is remembered (a few per table, every request asks), by the
    header and the public URL together, within a bound: the answers are the same each time."""
    for _again in range(2):
        assert local_host("192.168.1.20:5000", None) and local_host("coup.local", None)
        assert not local_host("evil.example", None)
        assert local_host("evil.example", "http://evil.example:8000")  # the referee's own
        assert not local_host("evil.example", "http://other.example")
        assert well_formed_host("a" * 63) and not well_formed_host("a" * 64)
        assert not well_formed_host("x" * 300) and not well_formed_host("\u00e9" * 70)
    for n in range(HOSTS_KEPT * 2):
        assert not local_host(f"name{n}.example", None)
    assert local_host.cache_info().currsize <= HOSTS_KEPT
