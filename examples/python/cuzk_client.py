#!/usr/bin/env python3
"""A Python client of cuzkd, the cuzk proving service (proto/cuzk/v1/prover.proto).

It generates its gRPC stubs from the .proto when it starts, with grpc_tools
(Debian: python3-grpcio python3-grpc-tools), into a temporary directory: no
generated code is kept. Then, for example:

  cuzk_client.py prove KEY witness.wtns proof.json public.json
  cuzk_client.py --daemon localhost:9090 prove KEY witness.wtns proof.json public.json --zkey /keys/c.zkey
  cuzk_client.py status

Without --daemon or CUZK_DAEMON it finds cuzkd's default socket as the cuzk CLI
does (default_address).

prove sends the witness's bytes and writes snarkjs's proof.json and public.json,
both or neither (each is written to a temporary file, then renamed). With
--zkey, the key is first preloaded under KEY (by its path where cuzkd reads it
there, else by its bytes).
Errors print one line "error: ..." and exit 2 for a bad argument or an unknown
key (INVALID_ARGUMENT, NOT_FOUND), 1 for anything else, as the cuzk CLI does.
"""

import argparse
import importlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "proto")
PROTO = "cuzk/v1/prover.proto"


class Failure(Exception):
    """An error to print as one line, with the exit status it calls for."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def load_stubs(proto_dir):
    """Generates prover_pb2 and prover_pb2_grpc from the .proto and imports them."""
    out = tempfile.mkdtemp(prefix="cuzk-stubs-")
    try:
        run = subprocess.run(
            [sys.executable, "-m", "grpc_tools.protoc", "-I" + proto_dir,
             "--python_out=" + out, "--grpc_python_out=" + out, os.path.join(proto_dir, PROTO)],
            capture_output=True, text=True)
        if run.returncode != 0:
            raise Failure("grpc_tools.protoc failed on %s: %s" % (PROTO, run.stderr.strip().replace("\n", "; ")))
        sys.path.insert(0, out)
        pb2 = importlib.import_module("cuzk.v1.prover_pb2")
        pb2_grpc = importlib.import_module("cuzk.v1.prover_pb2_grpc")
        return pb2, pb2_grpc
    finally:
        # The modules are loaded; their files are no longer needed.
        shutil.rmtree(out, ignore_errors=True)


SYSTEM_SOCKET = "/run/cuzk/cuzkd.sock"


def own_socket_dir():
    """The folder of cuzkd's default socket for this process, and whether it is
    a user's own (then it must be private), as cuzkd and the cuzk CLI choose it
    (src/service/daemon_socket.cpp): $RUNTIME_DIRECTORY under systemd, /run/cuzk
    for root, $XDG_RUNTIME_DIR/cuzk, else $TMPDIR/cuzk-<uid>."""
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if runtime:
        return runtime, False
    if os.geteuid() == 0:
        return os.path.dirname(SYSTEM_SOCKET), False
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(os.environ["XDG_RUNTIME_DIR"], "cuzk"), True
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", "cuzk-%d" % os.geteuid()), True


def default_address():
    """The address without --daemon or CUZK_DAEMON: the own default socket,
    where its folder is the user's and no one else may write there (else
    another user could plant a socket to receive witnesses), then the
    system's."""
    folder, private = own_socket_dir()
    own = os.path.join(folder, "cuzkd.sock")
    for sock in [own] + ([SYSTEM_SOCKET] if own != SYSTEM_SOCKET else []):
        try:
            if not stat.S_ISSOCK(os.stat(sock).st_mode):
                continue
            if sock == own and private:
                d = os.lstat(folder)
                if not stat.S_ISDIR(d.st_mode) or d.st_uid != os.geteuid() or d.st_mode & 0o022:
                    continue
        except OSError:
            continue
        return "unix://" + sock
    looked = own + ("" if own == SYSTEM_SOCKET else " nor " + SYSTEM_SOCKET)
    raise Failure("no cuzkd found: no socket at %s; start cuzkd, or give --daemon ADDR or set CUZK_DAEMON" % looked)


def channel_to(grpc, address, tls_ca):
    options = [("grpc.max_send_message_length", -1), ("grpc.max_receive_message_length", -1)]
    if "://" not in address and not address.startswith("unix:") and "/" in address:
        address = "unix:" + os.path.abspath(address)  # a socket path
    if tls_ca:
        with open(tls_ca, "rb") as f:
            return grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=f.read()), options)
    return grpc.insecure_channel(address, options)


def write_together(files):
    """Writes every (path, text) to a temporary file beside it, then renames them all."""
    temps = []
    try:
        for path, text in files:
            fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=os.path.dirname(path) or ".")
            temps.append(temp)
            with os.fdopen(fd, "w") as f:
                f.write(text)
        for (path, _), temp in zip(files, temps):
            os.replace(temp, path)
        temps = []
    finally:
        for temp in temps:
            os.unlink(temp)


def preload_key(pb2, stub, zkey, key):
    """By its path, read on the daemon's host; where cuzkd reads no client's key
    by path (no key_dirs, or not under them), by its contents."""
    import grpc  # main checked that it imports
    try:
        stub.Preload(pb2.PreloadRequest(path=os.path.abspath(zkey), id=key))
        return
    except grpc.RpcError as e:
        refused = e.code() == grpc.StatusCode.INVALID_ARGUMENT and (
            "reads no key files" in e.details() or "not under a key directory" in e.details())
        if not refused:
            raise
    try:
        with open(zkey, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Failure("%s: cannot read the key: %s" % (zkey, e.strerror), 2)
    stub.Preload(pb2.PreloadRequest(zkey=data, name=os.path.basename(zkey), id=key))


def curve_name(pb2, curve):
    """The curve as the cuzk CLI and snarkjs name it (bn128, bls12381), not the proto's enum name."""
    return {pb2.BN254: "bn128", pb2.BLS12_381: "bls12381"}.get(curve, pb2.Curve.Name(curve))


def prove(pb2, stub, args):
    for path in (args.proof, args.public):
        if os.path.exists(path):
            os.unlink(path)  # no older proof survives a failed run
    if args.zkey:
        preload_key(pb2, stub, args.zkey, args.key)
    try:
        with open(args.wtns, "rb") as f:
            wtns = f.read()
    except OSError as e:
        raise Failure("%s: cannot read the witness: %s" % (args.wtns, e.strerror), 2)
    result = stub.Prove(pb2.SubmitRequest(
        key_id=args.key, partitions=[pb2.Partition(wtns=wtns, name=args.wtns)], priority=args.priority))
    part = result.partitions[0]
    if not part.ok:
        usage = part.error_code in ("invalid_argument", "not_found")
        raise Failure(part.error or part.error_code, 2 if usage else 1)
    write_together([(args.proof, part.proof_json), (args.public, part.public_json)])
    if not args.quiet:
        print("cuzk_client.py: wrote %s and %s (%s proof, verified by cuzkd) in %.3f s on the daemon"
              % (args.proof, args.public, curve_name(pb2, result.curve), part.times.total_s))


def status(pb2, stub, args):
    reply = stub.Status(pb2.StatusRequest())
    print("cuzkd %s: %s backend, %d partitions queued, %d running"
          % (reply.version, reply.backend, reply.queued_partitions, reply.running_partitions))
    for key in reply.keys:
        print("  key %s: %s, %d variables, %d public, from %s"
              % (key.id, curve_name(pb2, key.curve), key.n_vars, key.n_public, key.source))


def main():
    parser = argparse.ArgumentParser(description="A Python client of cuzkd.")
    parser.add_argument("--daemon", default=os.environ.get("CUZK_DAEMON"),
                        help="cuzkd's address: unix:///path.sock, a socket path or host:port (default: "
                             "$CUZK_DAEMON, else cuzkd's default socket, as the cuzk CLI finds it)")
    parser.add_argument("--tls-ca", help="PEM file of the CA that signed cuzkd's certificate: connect with TLS")
    parser.add_argument("--proto-dir", default=PROTO_DIR, help="where cuzk/v1/prover.proto lies")
    verbs = parser.add_subparsers(dest="verb", required=True)
    p = verbs.add_parser("prove", help="prove a witness with a key loaded on cuzkd")
    p.add_argument("key", help="the key's id on cuzkd")
    p.add_argument("wtns", help="witness (.wtns), sent")
    p.add_argument("proof", help="where to write proof.json")
    p.add_argument("public", help="where to write public.json")
    p.add_argument("--zkey", help="preload this key (a path on the daemon's host) under KEY first")
    p.add_argument("--priority", type=int, default=0, help="higher runs first")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    verbs.add_parser("status", help="the daemon's backend, queues and keys")
    args = parser.parse_args()

    try:
        if not args.daemon:
            args.daemon = default_address()
        try:
            import grpc
        except ImportError:
            raise Failure("the grpc module is missing (Debian: apt-get install python3-grpcio python3-grpc-tools)")
        pb2, pb2_grpc = load_stubs(args.proto_dir)
        with channel_to(grpc, args.daemon, args.tls_ca) as channel:
            stub = pb2_grpc.ProverStub(channel)
            try:
                {"prove": prove, "status": status}[args.verb](pb2, stub, args)
            except grpc.RpcError as e:
                message = (e.details() or e.code().name).replace("\n", "; ")
                if e.code() == grpc.StatusCode.UNAVAILABLE and "connect" in message:
                    raise Failure("no cuzkd at %s: %s" % (args.daemon, message))
                usage = e.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND)
                raise Failure(message, 2 if usage else 1)
    except Failure as e:
        print("error: %s" % e, file=sys.stderr)
        return e.status
    except OSError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
