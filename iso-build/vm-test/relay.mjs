// QEMU guestfwd command: one guest connection on stdin/stdout, relayed to a host loopback port.
// The guest (user networking with restrict=on) has no other way out.
import { connect } from 'node:net';

const [host, port] = process.argv.slice(2);
if (host !== '127.0.0.1') throw new Error('the relay only reaches the host loopback');
const socket = connect(Number(port), host);
process.stdin.pipe(socket);
socket.pipe(process.stdout);
socket.on('error', () => process.exit(1));
socket.on('close', () => process.exit(0));
