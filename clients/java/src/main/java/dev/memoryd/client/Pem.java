package dev.memoryd.client;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks of the builder's TLS material, so a bad certificate or key is an {@link
 * IllegalArgumentException} from {@code build()} rather than UNAVAILABLE on every call.
 */
final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
  private static final String PKCS8_FIX =
      "; pass an unencrypted PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----), e.g. from "
          + "'openssl pkcs8 -topk8 -nocrypt -in key.pem'";

  private Pem() {}

  /** The certificates of PEM text; {@code what} names it in errors. */
  static List<X509Certificate> certificates(String what, byte[] pem) {
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (byte[] der : blocks(pem, "CERTIFICATE")) {
        certificates.add(
            (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      }
    } catch (CertificateException | IllegalArgumentException bad) {
      throw new IllegalArgumentException(
          what + " is not valid PEM (" + bad.getMessage() + "); pass PEM certificates "
              + "(-----BEGIN CERTIFICATE----- blocks)",
          bad);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException(
          what + " holds no certificate; pass PEM certificates (-----BEGIN CERTIFICATE----- "
              + "blocks)");
    }
    return certificates;
  }

  /** Checks that {@code keyPem} is a PKCS#8 private key of the chain's first certificate. */
  static void checkKeyPair(List<X509Certificate> chain, byte[] keyPem) {
    String text = new String(keyPem, StandardCharsets.US_ASCII);
    if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
      throw new IllegalArgumentException("the client private key is encrypted" + PKCS8_FIX);
    }
    if (text.contains("-----BEGIN RSA PRIVATE KEY-----")
        || text.contains("-----BEGIN EC PRIVATE KEY-----")) {
      throw new IllegalArgumentException(
          "the client private key is PKCS#1/SEC1, not PKCS#8" + PKCS8_FIX);
    }
    List<byte[]> keys;
    try {
      keys = blocks(keyPem, "PRIVATE KEY");
    } catch (IllegalArgumentException bad) {
      throw new IllegalArgumentException("the client private key is not valid PEM" + PKCS8_FIX, bad);
    }
    if (keys.size() != 1) {
      throw new IllegalArgumentException(
          "the client private key holds " + keys.size() + " keys, not one" + PKCS8_FIX);
    }
    X509Certificate leaf = chain.get(0);
    String algorithm = leaf.getPublicKey().getAlgorithm();
    PrivateKey key;
    try {
      key = KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(keys.get(0)));
    } catch (GeneralSecurityException bad) {
      throw new IllegalArgumentException(
          "the client private key is not a " + algorithm + " key as the certificate's is ("
              + bad.getMessage() + ")" + PKCS8_FIX,
          bad);
    }
    String signature = switch (algorithm) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "Ed25519", "Ed448", "EdDSA" -> algorithm;
      default -> null; // a key type this check does not know: the TLS handshake decides
    };
    if (signature == null) {
      return;
    }
    try {
      byte[] probe = new byte[32];
      new SecureRandom().nextBytes(probe);
      Signature signer = Signature.getInstance(signature);
      signer.initSign(key);
      signer.update(probe);
      byte[] signed = signer.sign();
      Signature verifier = Signature.getInstance(signature);
      verifier.initVerify(leaf.getPublicKey());
      verifier.update(probe);
      if (verifier.verify(signed)) {
        return;
      }
    } catch (GeneralSecurityException bad) {
      // falls through: the key cannot sign for the certificate
    }
    throw new IllegalArgumentException(
        "the client private key does not belong to the client certificate ("
            + leaf.getSubjectX500Principal() + "); pass the key the certificate was issued for");
  }

  /** The DER bytes of each {@code -----BEGIN <label>-----} block, in order. */
  private static List<byte[]> blocks(byte[] pem, String label) {
    List<byte[]> blocks = new ArrayList<>();
    Matcher matcher = BLOCK.matcher(new String(pem, StandardCharsets.US_ASCII));
    while (matcher.find()) {
      if (matcher.group(1).equals(label)) {
        blocks.add(Base64.getMimeDecoder().decode(matcher.group(2).replaceAll("\\s", "")));
      }
    }
    return blocks;
  }
}
