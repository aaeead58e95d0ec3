package dev.jccl;

/**
 * Ranks called different collectives at the same point of their sequence: another collective,
 * count, type, operator or root. Raised on every rank; the message names the ranks and the values
 * that differ.
 */
public class CollectiveMismatchException extends JcclException {
    public CollectiveMismatchException(String message) {
        super(message);
    }
}
