//! Bytes between modlearn and its worker processes: length-prefixed JSON
//! frames on an engine's stream socket, whole JSON packets (with a file
//! descriptor riding along) on the zygote's sequenced-packet socket.
//! Every frame has a size bound, so no worker can make the judge allocate
//! without limit.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest frame either side accepts (a snapshot with thousands of
/// registrations is a few MiB).
pub(crate) const MAX_FRAME: usize = 64 << 20;

/// The largest control packet (a spawn request carries the ctx values).
pub(crate) const MAX_PACKET: usize = 256 << 10;

/// Writes one length-prefixed frame.
pub(crate) fn write_frame<T: Serialize>(stream: &mut impl Write, value: &T) -> io::Result<()> {
    let body = serde_json::to_vec(value).map_err(io::Error::other)?;
    if body.len() > MAX_FRAME {
        return Err(io::Error::other(format!("a frame of {} bytes is over the {} MiB bound", body.len(), MAX_FRAME >> 20)));
    }
    let mut frame = Vec::with_capacity(body.len() + 4);
    frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
    frame.extend_from_slice(&body);
    stream.write_all(&frame)
}

/// Reads one length-prefixed frame; `Ok(None)` at a clean end of stream.
pub(crate) fn read_frame<T: DeserializeOwned>(stream: &mut impl Read) -> io::Result<Option<T>> {
    let mut length = [0u8; 4];
    match stream.read_exact(&mut length) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(error) => return Err(error),
    }
    let length = u32::from_le_bytes(length) as usize;
    if length > MAX_FRAME {
        return Err(io::Error::other(format!("a frame of {length} bytes is over the {} MiB bound", MAX_FRAME >> 20)));
    }
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body)?;
    serde_json::from_slice(&body).map(Some).map_err(io::Error::other)
}

/// A connected pair of sockets of `kind` (`SOCK_STREAM`, `SOCK_SEQPACKET`), close-on-exec.
pub(crate) fn socket_pair(kind: libc::c_int) -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: fds is a valid out array of two descriptors.
    let status = unsafe { libc::socketpair(libc::AF_UNIX, kind | libc::SOCK_CLOEXEC, 0, fds.as_mut_ptr()) };
    if status != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: socketpair succeeded, so both descriptors are open and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sends `value` as one packet, with `fd` attached when given.
pub(crate) fn send_packet<T: Serialize>(socket: &impl AsRawFd, value: &T, fd: Option<RawFd>) -> io::Result<()> {
    let body = serde_json::to_vec(value).map_err(io::Error::other)?;
    if body.len() > MAX_PACKET {
        return Err(io::Error::other(format!("a control packet of {} bytes is over the {} KiB bound", body.len(), MAX_PACKET >> 10)));
    }
    let mut iov = libc::iovec { iov_base: body.as_ptr() as *mut libc::c_void, iov_len: body.len() };
    // Room for one descriptor, aligned as cmsghdr wants.
    let mut control = [0u64; 4];
    // SAFETY: an all-zero msghdr is valid; the pointers set below outlive the sendmsg call.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    if let Some(fd) = fd {
        // SAFETY: CMSG_SPACE only computes a size.
        let space = unsafe { libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) } as usize;
        message.msg_control = control.as_mut_ptr().cast();
        message.msg_controllen = space as _;
        // SAFETY: msg_control points at `space` writable bytes, enough for one header and one fd.
        unsafe {
            let header = libc::CMSG_FIRSTHDR(&message);
            (*header).cmsg_level = libc::SOL_SOCKET;
            (*header).cmsg_type = libc::SCM_RIGHTS;
            (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
            std::ptr::write_unaligned(libc::CMSG_DATA(header).cast::<RawFd>(), fd);
        }
    }
    loop {
        // SAFETY: message and everything it points at are valid for the call.
        let sent = unsafe { libc::sendmsg(socket.as_raw_fd(), &message, libc::MSG_NOSIGNAL) };
        if sent >= 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Receives one packet and the descriptor attached to it, if any;
/// `Ok(None)` when the other end closed.
pub(crate) fn receive_packet<T: DeserializeOwned>(socket: &impl AsRawFd) -> io::Result<Option<(T, Option<OwnedFd>)>> {
    let mut body = vec![0u8; MAX_PACKET];
    let mut iov = libc::iovec { iov_base: body.as_mut_ptr().cast(), iov_len: body.len() };
    let mut control = [0u64; 4];
    // SAFETY: an all-zero msghdr is valid; the pointers set below outlive the recvmsg call.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = std::mem::size_of_val(&control) as _;
    let received = loop {
        // SAFETY: message and its buffers are valid for the call.
        let received = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut message, libc::MSG_CMSG_CLOEXEC) };
        if received >= 0 {
            break received as usize;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    };
    if received == 0 {
        return Ok(None);
    }
    let mut fd = None;
    // SAFETY: recvmsg filled msg_control; the CMSG macros walk only within msg_controllen.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&message);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET && (*header).cmsg_type == libc::SCM_RIGHTS {
                let raw = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<RawFd>());
                fd = Some(OwnedFd::from_raw_fd(raw));
            }
            header = libc::CMSG_NXTHDR(&message, header);
        }
    }
    let value = serde_json::from_slice(&body[..received]).map_err(io::Error::other)?;
    Ok(Some((value, fd)))
}
