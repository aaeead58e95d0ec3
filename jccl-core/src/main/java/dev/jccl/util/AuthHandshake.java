package dev.jccl.util;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * Mutual challenge-response on a fresh connection, proving both ends hold the job token without
 * sending it: each side sends a random nonce and answers the other's with
 * HMAC-SHA256(token, purpose | nonces). A replayed answer fails because the nonces are new.
 *
 * <p>Blocking; callers bound it with a socket read timeout. Failure throws
 * {@link AuthenticationException}; the caller closes the connection and logs the peer address.
 */
public final class AuthHandshake {
    private static final int NONCE_BYTES = 16;
    private static final int MAC_BYTES = 32;
    private static final int MAGIC = 0x4A43434C; // "JCCL"
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The job token did not match, or the peer spoke something else. */
    public static final class AuthenticationException extends IOException {
        public AuthenticationException(String message) {
            super(message);
        }
    }

    private AuthHandshake() {}

    /** Makes a fresh random token, hex-encoded, for a launcher to hand to its ranks. */
    public static String newToken() {
        byte[] b = new byte[24];
        RANDOM.nextBytes(b);
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }

    /** Client side: the end that opened the connection. */
    public static void client(InputStream rawIn, OutputStream rawOut, String token, String purpose) throws IOException {
        DataInputStream in = new DataInputStream(rawIn);
        DataOutputStream out = new DataOutputStream(rawOut);
        byte[] mine = nonce();
        out.writeInt(MAGIC);
        out.write(mine);
        out.flush();
        byte[] theirs = readHello(in);
        out.write(mac(token, purpose, "client", theirs, mine));
        out.flush();
        byte[] proof = in.readNBytes(MAC_BYTES);
        if (proof.length < MAC_BYTES) {
            // A server that refuses the token closes without a proof, and so does one shutting down.
            throw new AuthenticationException("server closed the connection without proving the job token (JCCL_AUTH_TOKEN"
                    + " differs, or the server was shutting down)");
        }
        if (!MessageDigest.isEqual(proof, mac(token, purpose, "server", mine, theirs))) {
            throw new AuthenticationException("server did not prove the job token (JCCL_AUTH_TOKEN differs)");
        }
    }

    /** Server side: the end that accepted the connection. */
    public static void server(InputStream rawIn, OutputStream rawOut, String token, String purpose) throws IOException {
        DataInputStream in = new DataInputStream(rawIn);
        DataOutputStream out = new DataOutputStream(rawOut);
        byte[] mine = nonce();
        out.writeInt(MAGIC);
        out.write(mine);
        out.flush();
        byte[] theirs = readHello(in);
        byte[] proof = in.readNBytes(MAC_BYTES);
        if (!MessageDigest.isEqual(proof, mac(token, purpose, "client", mine, theirs))) {
            throw new AuthenticationException("client did not present the job token (JCCL_AUTH_TOKEN differs or is missing)");
        }
        out.write(mac(token, purpose, "server", theirs, mine));
        out.flush();
    }

    private static byte[] readHello(DataInputStream in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new AuthenticationException(String.format("peer is not speaking jccl (magic 0x%08x)", magic));
        }
        byte[] n = in.readNBytes(NONCE_BYTES);
        if (n.length != NONCE_BYTES) throw new AuthenticationException("peer closed during handshake");
        return n;
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    private static byte[] mac(String token, String purpose, String role, byte[] a, byte[] b) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            byte[] key = token.getBytes(StandardCharsets.UTF_8);
            m.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
            m.update(purpose.getBytes(StandardCharsets.UTF_8));
            m.update((byte) 0);
            m.update(role.getBytes(StandardCharsets.UTF_8));
            m.update(a);
            m.update(b);
            return m.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
