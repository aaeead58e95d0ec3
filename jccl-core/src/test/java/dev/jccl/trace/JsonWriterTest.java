package dev.jccl.trace;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Tag("unit")
class JsonWriterTest {
    @Test
    void placesCommasBetweenMembersAndElementsAtEveryDepth() {
        StringBuilder sb = new StringBuilder();
        new JsonWriter(sb).beginObject().name("a").value(1).name("b").beginArray().value("x").beginObject().endObject()
                .beginArray().endArray().nullValue().endArray().name("c").beginObject().name("d").value(-2).endObject().endObject();
        assertEquals("{\"a\":1,\"b\":[\"x\",{},[],null],\"c\":{\"d\":-2}}", sb.toString());
    }

    @Test
    void numbersUseFixedDecimalsAndNullForWhatJsonCannotSay() {
        StringBuilder sb = new StringBuilder();
        new JsonWriter(sb).beginArray().value(1.5, 2).value(Double.NaN, 2).value(Double.POSITIVE_INFINITY, 1).value(2.0 / 3, 3)
                .value(7.0, 0).endArray();
        assertEquals("[1.50,null,null,0.667,7]", sb.toString());
    }

    @Test
    void aLinePerElementArrayPutsEachElementOnItsOwnLine() {
        StringBuilder sb = new StringBuilder();
        new JsonWriter(sb).beginObject().name("e").beginArrayLinePerElement().value(1).value(2).endArray()
                .name("none").beginArrayLinePerElement().endArray().endObject();
        assertEquals("{\"e\":[\n1,\n2\n],\"none\":[\n]}", sb.toString());
    }

    @Test
    void quotingEscapesWhatJsonNeedsAndKeepsScriptElementsClosedOnlyWhereMeant() {
        assertEquals("\"a\\\"b\\\\c\\n\\r\\t<\\/script> 1/2\"", JsonWriter.quote("a\"b\\c\n\r\t</script> 1/2"));
        assertEquals("\"\\u0001\\u2028\\u2029é\"", JsonWriter.quote("\u0001\u2028\u2029é"));
    }

    @Test
    void aFailingTargetSurfacesItsIoException() {
        Writer broken = new Writer() {
            @Override
            public void write(char[] buf, int off, int len) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> new JsonWriter(broken).beginObject());
        assertEquals("disk full", e.getCause().getMessage());
    }
}
