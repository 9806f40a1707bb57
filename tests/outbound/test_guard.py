"""The outbound guard's rules: what may be called with the defaults, what private targets lift,
and what is refused always; and the check for clients we do not control."""

import pytest

from incidents.outbound.guard import refusal_for

NEVER = [
    "169.254.169.254",
    "169.254.170.2",
    "169.254.169.253",
    "100.100.100.200",
    "168.63.129.16",
    "fd00:ec2::254",
    "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::a9fe:a9fe",
    "2002:a9fe:a9fe::",
    "::169.254.169.254",
    "169.254.1.1",
    "fe80::1",
    "224.0.0.1",
    "ff02::1",
    "0.0.0.0",
    "0.1.2.3",
    "::",
    "240.0.0.1",
    "255.255.255.255",
]
PRIVATE = [
    "127.0.0.1",
    "::1",
    "10.0.0.1",
    "192.168.1.1",
    "172.16.0.1",
    "fd12::1",
    "100.64.0.1",
    "::ffff:10.0.0.1",
]
PUBLIC = [
    "93.184.216.34",
    "2606:4700::1111",
    "2002:5db8:d822::1",
    "64:ff9b::5db8:d822",
    "::ffff:93.184.216.34",
]


@pytest.mark.parametrize("allow_private", [False, True])
@pytest.mark.parametrize("address", NEVER)
def test_metadata_link_local_multicast_and_reserved_addresses_are_refused_always(address, allow_private):
    assert refusal_for(address, allow_private=allow_private)


@pytest.mark.parametrize("address", PRIVATE)
def test_private_loopback_and_shared_addresses_need_the_setting(address):
    assert "OUTBOUND_ALLOW_PRIVATE_TARGETS" in refusal_for(address, allow_private=False)
    assert refusal_for(address, allow_private=True) is None


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_and_their_wrapped_forms_are_allowed(address):
    assert refusal_for(address, allow_private=False) is None


def test_wrapped_metadata_reads_as_metadata():
    assert (
        refusal_for("::ffff:169.254.169.254", allow_private=True)
        == "Cloud metadata addresses are never allowed."
    )
