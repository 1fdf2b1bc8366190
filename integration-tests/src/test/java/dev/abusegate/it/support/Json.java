package dev.abusegate.it.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;
import java.util.Map;

/** Small Jackson wrapper shared by the harness: JSON in and out as plain maps and lists. */
public final class Json {

    public static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Json() {
    }

    /** Serialises a map, list, string, number or bean to JSON. A {@link String} argument is returned unchanged. */
    public static String write(Object value) {
        if (value instanceof String s) {
            return s;
        }
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot serialise to JSON: " + e.getMessage(), e);
        }
    }

    public static Map<String, Object> parseMap(String json) {
        return parse(json, new TypeReference<>() { });
    }

    public static List<Map<String, Object>> parseList(String json) {
        return parse(json, new TypeReference<>() { });
    }

    private static <T> T parse(String json, TypeReference<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Not the expected JSON: " + e.getOriginalMessage()
                    + "\n--- body ---\n" + abbreviate(json), e);
        }
    }

    static String abbreviate(String s) {
        return s == null ? "<null>" : s.length() <= 2000 ? s : s.substring(0, 2000) + "… (" + s.length() + " chars)";
    }
}
