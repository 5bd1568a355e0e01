#!/bin/sh
# Runs inside the base root (chroot) after image/rootfs is copied over it.
set -eu

# The kiosk runs as an ordinary user; the agent (raw disks) runs as root.
id kiosk >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/kiosk --groups video,render,input kiosk

systemctl enable systemd-networkd.service systemd-resolved.service systemd-timesyncd.service
systemctl enable systemd-networkd-wait-online.service
systemctl enable erasure-env.service erasure-agent.service erasure-kiosk.service erasure-headless.service erasure-remote-kiosk.service

# No login prompt on the display or the serial line, and no way in over the network (no sshd is installed).
systemctl mask getty@.service serial-getty@.service autovt@.service console-getty.service
passwd -l root

echo erasure > /etc/hostname
ln -sf /run/systemd/resolve/stub-resolv.conf /etc/resolv.conf

# The project layer brings /opt/erasure; an empty /opt here would clash when the PXE root
# is assembled by appending that layer to this one.
rmdir /opt 2>/dev/null || true
rm -rf /var/cache/apt/archives/*.deb /var/lib/apt/lists/*
